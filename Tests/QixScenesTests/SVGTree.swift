import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The pictures' text parsed as XML, for structural checks: the elements in document order,
/// with their attributes and their ancestors.
struct SVGTree {
    /// One element.
    struct Element {
        var name: String
        var attributes: [String: String]
        var text: String
        /// The elements it sits in, outermost first.
        var ancestors: [Element]
        var children: [Element] = []

        /// The numbers of a `points` attribute, paired.
        var points: [(Double, Double)] {
            (attributes["points"] ?? "").split(separator: " ").compactMap { pair in
                let xy = pair.split(separator: ",").compactMap { Double($0) }
                return xy.count == 2 ? (xy[0], xy[1]) : nil
            }
        }

        /// A numeric attribute.
        func number(_ name: String) -> Double? { attributes[name].flatMap(Double.init) }
    }

    /// Every element, in document order.
    var elements: [Element] = []

    /// Parses `text` (throws on anything that is not well-formed XML).
    init(_ text: String) throws {
        let document = try XMLDocument(xmlString: text)
        guard let root = document.rootElement() else { return }
        walk(root, ancestors: [])
    }

    private mutating func walk(_ node: XMLElement, ancestors: [Element]) {
        var attributes: [String: String] = [:]
        for a in node.attributes ?? [] { if let name = a.name { attributes[name] = a.stringValue ?? "" } }
        let element = Element(name: node.localName ?? node.name ?? "", attributes: attributes, text: node.stringValue ?? "", ancestors: ancestors)
        elements.append(element)
        for case let child as XMLElement in node.children ?? [] { walk(child, ancestors: ancestors + [element]) }
    }

    /// The elements named `name`, optionally with `class` `cls`.
    func all(_ name: String, class cls: String? = nil) -> [Element] {
        elements.filter { $0.name == name && (cls == nil || $0.attributes["class"] == cls) }
    }

    /// The element with `id`.
    func byID(_ id: String) -> Element? { elements.first { $0.attributes["id"] == id } }
}
