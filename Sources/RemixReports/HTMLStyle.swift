import RemixAnalysis
import RemixFormats
import RemixKit

/// The HTML report's shared pieces: the style sheet, text escaping and numbers that name the JSON
/// report's field they show.
enum HTMLStyle {
    /// Okabe–Ito colours (distinguishable with every common colour-vision deficiency), one per
    /// variation by position (`c0` is the baseline), switched to lighter ones on a dark background.
    static let css = """
        :root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1b;--muted:#595959;--grid:#cfcfcf;--panel:#f4f4f4;\
        --v0:#0072B2;--v1:#E69F00;--v2:#009E73;--v3:#CC79A7;--v4:#D55E00;--v5:#56B4E9;--good:#009E73;--bad:#D55E00;\
        --warn:#F0E442}
        @media (prefers-color-scheme:dark){:root{--bg:#141414;--fg:#ececec;--muted:#ababab;--grid:#4a4a4a;\
        --panel:#202020;--v0:#56B4E9;--v5:#0072B2}}
        body{background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;\
        max-width:1100px;margin:0 auto;padding:0 14px 40px}
        h1{font-size:1.5em;margin:.8em 0 .2em}h2{font-size:1.3em;margin:1.6em 0 .3em;border-top:2px solid var(--grid);\
        padding-top:.6em}h3{font-size:1.05em;margin:1.2em 0 .3em}
        .muted,figcaption,.note{color:var(--muted);font-size:.9em}
        code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em;overflow-wrap:anywhere}
        .banner{border-left:6px solid var(--warn);background:var(--panel);padding:.45em .8em;margin:.4em 0}
        .banner.alert{border-left-color:var(--bad);font-weight:600}
        .banner strong{text-transform:uppercase;letter-spacing:.03em}
        .verdict{font-size:1.08em;background:var(--panel);padding:.5em .8em;margin:.5em 0;border-radius:4px}
        .tag{display:inline-block;padding:0 .4em;border-radius:3px;font-weight:700;color:#000}
        .tag.win{background:var(--good)}.tag.lose{background:var(--bad)}.tag.none{background:var(--grid);color:var(--fg)}
        .tag.guard{background:var(--warn)}
        .scroll{overflow-x:auto}
        table{border-collapse:collapse;margin:.4em 0;font-variant-numeric:tabular-nums}
        th,td{padding:.2em .6em;border-bottom:1px solid var(--grid);text-align:right;vertical-align:top}
        th:first-child,td:first-child,td.text,th.text{text-align:left}
        td.text,th.text,td:first-child{overflow-wrap:break-word}
        figure{margin:.6em 0}
        svg{width:100%;max-width:600px;height:auto;display:block}
        svg text{fill:var(--fg);font:12px system-ui,sans-serif}
        svg .label{paint-order:stroke;stroke:var(--bg);stroke-width:3px;stroke-linejoin:round}
        svg .axis{stroke:var(--grid);stroke-width:1}svg .zero{stroke:var(--fg);stroke-width:1.2;stroke-dasharray:4 3}
        svg .tick{fill:var(--muted)}svg .band{stroke:none;fill-opacity:.22}svg .line{fill:none;stroke-width:2}
        svg .ci{stroke-width:2.5}svg .bar{stroke:none}
        .c0{stroke:var(--v0);fill:var(--v0)}.c1{stroke:var(--v1);fill:var(--v1)}.c2{stroke:var(--v2);fill:var(--v2)}
        .c3{stroke:var(--v3);fill:var(--v3)}.c4{stroke:var(--v4);fill:var(--v4)}.c5{stroke:var(--v5);fill:var(--v5)}
        .key{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:-.05em;border-radius:2px}
        .key.c0{background:var(--v0)}.key.c1{background:var(--v1)}.key.c2{background:var(--v2)}
        .key.c3{background:var(--v3)}.key.c4{background:var(--v4)}.key.c5{background:var(--v5)}
        @media (max-width:600px){body{font-size:14px}th,td{padding:.15em .35em}\
        table.fit,table.fit tbody,table.fit tr,table.fit td{display:block}table.fit tr:first-child{display:none}\
        table.fit tr{border-bottom:1px solid var(--grid);padding:.25em 0}table.fit td{border:0;text-align:left;padding:.05em .2em}\
        table.fit td:empty{display:none}table.fit td::before{content:attr(data-label) ": ";color:var(--muted)}\
        table.fit td[data-label=""]::before{content:none}}
        @media print{:root{--bg:#fff;--fg:#000;--panel:#fff;--v0:#0072B2;--v5:#56B4E9}body{max-width:none}th,td{white-space:normal}\
        .scroll{overflow:visible}section,figure,.banner{break-inside:avoid}h2{break-after:avoid}}
        """

    /// The colour class of the variation at `index` (the palette repeats after six).
    static func colour(_ index: Int) -> String { "c\(index % 6)" }

    /// `text` made safe as element content or a quoted attribute value (also in XML): control
    /// characters, which XML 1.0 does not allow, shown escaped as every format shows them.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in JSONText.visible(text).unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}

/// How the page shows a number; named in its `data-fmt` attribute so that each shown number can
/// be checked against the JSON report's field (its `data-json` pointer).
enum HTMLNumber: RawRepresentable, Equatable {
    case percent, signedPercent, signedFigure, fixed4, grouped, figure, tenths, fixed5
    /// To this many decimals (`d4`): an absolute risk, to its comparison's decimals.
    case decimals(Int)

    init?(rawValue: String) {
        let named: [String: HTMLNumber] = ["pct": .percent, "spct": .signedPercent, "sfig": .signedFigure, "p4": .fixed4,
                                           "int": .grouped, "fig": .figure, "f1": .tenths, "p5": .fixed5]
        if let format = named[rawValue] {
            self = format
        } else if rawValue.hasPrefix("d"), let digits = Int(rawValue.dropFirst()), (0...12).contains(digits) {
            self = .decimals(digits)
        } else {
            return nil
        }
    }

    var rawValue: String {
        switch self {
        case .percent: "pct"
        case .signedPercent: "spct"
        case .signedFigure: "sfig"
        case .fixed4: "p4"
        case .grouped: "int"
        case .figure: "fig"
        case .tenths: "f1"
        case .fixed5: "p5"
        case .decimals(let digits): "d\(digits)"
        }
    }

    /// `value` as shown ("-" when not finite).
    func text(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        switch self {
        case .fixed5: return TableReport.fixed(value, 5)
        case .percent: return TableReport.percent(value)
        case .signedPercent: return TableReport.signedPercent(value)
        case .signedFigure: return TableReport.signedFigure(value)
        case .fixed4: return TableReport.fixed(value, 4)
        case .grouped: return abs(value) < 1e18 ? TableReport.grouped(Int(value.rounded())) : TableReport.figure(value)
        case .figure: return TableReport.figure(value)
        case .tenths: return TableReport.fixed(value, 1)
        case .decimals(let digits): return TableReport.fixed(value, digits)
        }
    }

    /// `value` as shown, in a `tag` element that names the JSON field it comes from.
    func element(_ value: Double, _ pointer: JSONPointer, tag: String = "span", attributes: String = "") -> String {
        "<\(tag)\(attributes) data-json=\"\(HTMLStyle.escape(pointer.text))\" data-fmt=\"\(rawValue)\">\(text(value))</\(tag)>"
    }
}

/// A JSON Pointer (RFC 6901) into the JSON report, e.g. `/experiments/0/comparisons/1/expected`.
struct JSONPointer {
    private(set) var text = ""

    /// The pointer to a member or element of this one.
    func callAsFunction(_ components: Any...) -> JSONPointer {
        var next = self
        for component in components {
            let name = "\(component)".replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            next.text += "/" + name
        }
        return next
    }
}
