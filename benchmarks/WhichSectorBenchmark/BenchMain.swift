@main struct BenchMain { static func main() {} }
