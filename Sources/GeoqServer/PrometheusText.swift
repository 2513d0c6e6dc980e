/// Pieces of the Prometheus text format shared by the service's counters.
enum PrometheusText {
    /// A counter with one sample per reason, `name{reason="…"} count`, after its HELP and TYPE
    /// lines: every reason in declaration order, those never counted as 0, so that a dashboard
    /// sees each series from the start.
    static func counter<Reason: CaseIterable & RawRepresentable<String>>(
        _ name: String, help: String, byReason count: (Reason) -> Int
    ) -> String {
        var out = "# HELP \(name) \(help)\n# TYPE \(name) counter\n"
        for reason in Reason.allCases {
            out += "\(name){reason=\"\(reason.rawValue)\"} \(count(reason))\n"
        }
        return out
    }
}
