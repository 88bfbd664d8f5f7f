package io.apiary.ingest.report;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/** A rendered report parsed with the JDK's XML parser (the markup is well-formed XML), queried by XPath. */
final class ReportDocument {

    private final Document document;

    private ReportDocument(Document document) {
        this.document = document;
    }

    /** @throws AssertionError if the HTML is not well-formed XML */
    static ReportDocument parse(String html) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setExpandEntityReferences(false);
            return new ReportDocument(factory.newDocumentBuilder().parse(new InputSource(new StringReader(html))));
        } catch (Exception e) {
            throw new AssertionError("the report is not well-formed XML: " + e.getMessage(), e);
        }
    }

    List<Element> all(String xpath) {
        try {
            NodeList nodes =
                    (NodeList) XPathFactory.newInstance().newXPath().evaluate(xpath, document, XPathConstants.NODESET);
            List<Element> elements = new ArrayList<>();
            for (int i = 0; i < nodes.getLength(); i++) {
                elements.add((Element) nodes.item(i));
            }
            return elements;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    Element one(String xpath) {
        List<Element> elements = all(xpath);
        if (elements.size() != 1) {
            throw new AssertionError("expected one element at " + xpath + ", found " + elements.size());
        }
        return elements.get(0);
    }

    /** @return the plotted points of a sensor chart: pairs of all its polylines plus its lone circles */
    static int plottedPoints(Element chart) {
        int points = 0;
        NodeList polylines = chart.getElementsByTagName("polyline");
        for (int i = 0; i < polylines.getLength(); i++) {
            points += pairs((Element) polylines.item(i));
        }
        NodeList circles = chart.getElementsByTagName("circle");
        for (int i = 0; i < circles.getLength(); i++) {
            points += ((Element) circles.item(i)).getAttribute("class").equals("lone") ? 1 : 0;
        }
        return points;
    }

    static int pairs(Element polyline) {
        String points = polyline.getAttribute("points").strip();
        return points.isEmpty() ? 0 : points.split("\\s+").length;
    }
}
