/// Which vocabulary a feed element belongs to: the one rule every feed reader uses
/// (``GeoRSSFeedReader``, ``GeoRSSPointReader``) to tell `georss:point` from another `point`.
///
/// An element is recognised by its namespace URI, whatever prefix the document binds to it
/// (`<gr:point xmlns:gr="http://www.georss.org/georss">` is GeoRSS). A namespace geoq does not
/// know falls back to the prefix feeds usually write (`georss`, `gml`, `geo`, `dc`, `content`,
/// `atom`), so that a feed declaring an outdated or misspelt URI still reads as it always has.
/// Unprefixed elements in no namespace, or in Atom's or RSS 1.0's, are the feed's own.
enum FeedVocabulary: Hashable, Sendable {
    /// RSS 2.0 (no namespace), RSS 1.0 and Atom elements: `item`, `entry`, `title`, `link`...
    case feed
    /// GeoRSS Simple (http://www.georss.org/georss).
    case georss
    /// GML (http://www.opengis.net/gml, and 3.2's URI).
    case gml
    /// W3C Basic Geo (http://www.w3.org/2003/01/geo/wgs84_pos#).
    case w3cGeo
    /// Dublin Core (`dc:date`).
    case dublinCore
    /// RSS 1.0's content module (`content:encoded`).
    case content
    /// Anything else.
    case other

    init(prefix: String, namespaceURI: String) {
        if namespaceURI.isEmpty, prefix.isEmpty {
            self = .feed  // RSS 2.0's elements: most of a feed
            return
        }
        switch namespaceURI {
        case "http://www.w3.org/2005/Atom", "http://purl.org/rss/1.0/": self = .feed
        case "http://www.georss.org/georss": self = .georss
        case "http://www.opengis.net/gml", "http://www.opengis.net/gml/3.2": self = .gml
        case "http://www.w3.org/2003/01/geo/wgs84_pos#": self = .w3cGeo
        case "http://purl.org/dc/elements/1.1/": self = .dublinCore
        case "http://purl.org/rss/1.0/modules/content/": self = .content
        default:
            switch prefix {
            case "", "atom": self = .feed
            case "georss": self = .georss
            case "gml": self = .gml
            case "geo": self = .w3cGeo
            case "dc": self = .dublinCore
            case "content": self = .content
            default: self = .other
            }
        }
    }
}
