import CanopyAccessibility
import CanopyHTML

/// Videos need captions so that deaf and hard of hearing people get the dialogue and the
/// sounds that matter (WCAG 1.2.2 Captions (Prerecorded)).
public struct VideoCaptionRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "video-caption",
        impact: .critical,
        tags: [
            "cat.text-alternatives", "wcag2a", "wcag122", "section508", "section508.22.a", "TTv5", "TT17.a",
            "EN-301-549", "EN-9.1.2.2", "RGAAv4", "RGAA-4.3.1",
        ],
        description: "Checks that each <video> has a captions track",
        help: "Videos must have captions",
        howToFix: "Add a <track kind=\"captions\" src=\"…\" srclang=\"…\"> with captions for the speech and meaningful sounds, or burn captions into the video.",
        enabledByDefault: false,
        rationale: "A video without captions shuts out deaf and hard-of-hearing users; opt-in because static HTML cannot see captions burned into the picture."
    )

    public let selector = try! SelectorList("video")

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let hasCaptionsTrack = element.descendants.contains { track in
            track.isHTML && track.localName == "track" && track.attribute("kind")?.lowercased() == "captions"
        }
        if hasCaptionsTrack { return .pass }
        // Captions may be burnt into the picture, or the video may have no sound: only watching tells.
        return .incomplete("The video has no <track kind=\"captions\">. Check whether captions are shown some other way (e.g. burnt into the video) or whether it has no speech or sound to caption.")
    }

    public let examples = RuleExamples(
        passing: [
            #"<video src="tour.mp4" controls><track kind="captions" src="tour.en.vtt" srclang="en"></video>"#,
            #"<video controls><source src="tour.webm"><track kind="descriptions" src="d.vtt"><track kind="Captions" src="c.vtt"></video>"#,
        ],
        violating: [],
        incomplete: [
            RuleExample(#"<video src="tour.mp4" controls></video>"#, at: #"[src="tour.mp4"]"#),
            // Subtitles translate the speech but leave out the sounds; descriptions are for blind people.
            RuleExample(#"<video src="tour.mp4" controls><track kind="subtitles" src="tour.fr.vtt" srclang="fr"><track kind="descriptions" src="d.vtt"></video>"#, at: #"[src="tour.mp4"]"#),
        ],
        inapplicable: [
            #"<video src="tour.mp4" controls style="display: none"></video>"#,
            #"<audio src="talk.mp3" controls></audio>"#,
        ]
    )
}
