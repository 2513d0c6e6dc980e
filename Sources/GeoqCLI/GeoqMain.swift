@main struct GeoqMain { static func main() {} }
