package io.siteflow.rules.importer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * An XML file read with StAX into elements that keep their line and column. Namespaces are dropped (WebLogic's
 * descriptors use several); DTDs and external entities are refused. Immutable.
 *
 * @param name     local name of the element
 * @param text     its own text, trimmed
 * @param children child elements in file order
 */
record XmlTree(String name, String text, List<XmlTree> children, Origin origin) {

    /** The first child of that name, if any. */
    Optional<XmlTree> child(String childName) {
        return children.stream().filter(c -> c.name.equals(childName)).findFirst();
    }

    /** Every child of that name. */
    List<XmlTree> all(String childName) {
        return children.stream().filter(c -> c.name.equals(childName)).toList();
    }

    /** The text of the first child of that name, {@code ""} when absent. */
    String text(String childName) {
        return child(childName).map(XmlTree::text).orElse("");
    }

    /**
     * Reads a file; a file that is not well-formed XML is reported with its line and column.
     *
     * @param shownName what diagnostics call the file
     * @throws IOException when it cannot be read
     */
    static Optional<XmlTree> read(Path file, String shownName, Findings findings) throws IOException {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        try (InputStream in = Files.newInputStream(file)) {
            XMLStreamReader r = factory.createXMLStreamReader(in);
            try {
                return Optional.of(build(r, shownName));
            } finally {
                r.close();
            }
        } catch (XMLStreamException e) {
            Location l = e.getLocation();
            Origin at = l == null ? new Origin(shownName, 1, 1) : new Origin(shownName, l.getLineNumber(), l.getColumnNumber());
            findings.error(at, "", "malformed XML: " + reason(e));
            return Optional.empty();
        }
    }

    private static XmlTree build(XMLStreamReader r, String file) throws XMLStreamException {
        Deque<Building> open = new ArrayDeque<>();
        XmlTree root = null;
        while (r.hasNext()) {
            // where the previous event ended is where this one starts: an element's '<'
            Location before = r.getLocation();
            int line = before.getLineNumber();
            int column = Math.max(1, before.getColumnNumber() - 1); // StAX counts one past the last character read
            int event = r.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                open.push(new Building(r.getLocalName(), new Origin(file, line, column)));
            } else if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA) {
                if (!open.isEmpty()) {
                    open.peek().text.append(r.getText());
                }
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                Building b = open.pop();
                XmlTree done = new XmlTree(b.name, b.text.toString().trim(), List.copyOf(b.children), b.origin);
                if (open.isEmpty()) {
                    root = done;
                } else {
                    open.peek().children.add(done);
                }
            }
        }
        if (root == null) {
            throw new XMLStreamException("no root element", r.getLocation());
        }
        return root;
    }

    /** The parser's own words without its {@code ParseError at [row,col]} prefix (the position is ours). */
    private static String reason(XMLStreamException e) {
        String m = String.valueOf(e.getMessage());
        int at = m.indexOf("Message: ");
        return (at >= 0 ? m.substring(at + "Message: ".length()) : m).trim();
    }

    private static final class Building {
        final String name;
        final Origin origin;
        final StringBuilder text = new StringBuilder();
        final List<XmlTree> children = new ArrayList<>();

        Building(String name, Origin origin) {
            this.name = name;
            this.origin = origin;
        }
    }
}
