extension Duration {
    /// The duration in seconds, for the benchmark's figures.
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
