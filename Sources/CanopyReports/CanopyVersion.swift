/// The version Canopy reports as its test engine.
public enum CanopyVersion {
    public static let current = "0.1.1"
}
