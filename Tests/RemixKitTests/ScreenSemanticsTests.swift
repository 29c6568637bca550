import RemixKit
import Testing

/// The semantics a screen description carries, and their defaults for views that declare none.
struct ScreenSemanticsTests {
    @Test func everySemanticDefaultsToTheNeutralValue() {
        let screen = ScreenContent(name: "s", title: "S")
        #expect(!screen.isBusy)
        #expect(!screen.blocksInput)
        let item = ScreenItem(id: "1", title: "One")
        #expect(item.kind == .item)
        #expect(item.value == nil)
        #expect(!item.isSelected)
        #expect(!item.hasChildren)
        #expect(ScreenTextField(id: "f", label: "F", value: "").purpose == .text)
        #expect(ScreenButton(id: "b", title: "B").role == .other)
    }

    @Test func theHasChildrenInitializerMakesDrillDownOrItemRows() {
        #expect(ScreenItem(id: "1", title: "One", hasChildren: true).kind == .drillDown)
        #expect(ScreenItem(id: "1", title: "One", hasChildren: true).hasChildren)
        #expect(ScreenItem(id: "1", title: "One", hasChildren: false).kind == .item)
        #expect(ScreenItem(id: "1", title: "One", kind: .choice).hasChildren == false)
    }

    @Test func semanticsTakePartInEquality() {
        #expect(ScreenButton(id: "b", title: "B", role: .primary) != ScreenButton(id: "b", title: "B"))
        #expect(ScreenItem(id: "1", title: "One", value: "x") != ScreenItem(id: "1", title: "One"))
        #expect(ScreenContent(name: "s", title: "S", isBusy: true) != ScreenContent(name: "s", title: "S"))
    }

    @Test func fieldPurposesAreOpenNamesWithCommonConstants() {
        let price: FieldPurpose = "price"
        #expect(price.rawValue == "price")
        #expect(price.description == "price")
        #expect(FieldPurpose(rawValue: "title") == .title)
        #expect([FieldPurpose.text, .title, .number, .query].map(\.rawValue) == ["text", "title", "number", "query"])
    }

    @Test func theButtonRolesAndRowKindsAreTheDocumentedOnes() {
        #expect(ButtonRole.allCases.map(\.rawValue) == ["primary", "submit", "cancel", "back", "destructive", "other"])
        #expect(ItemKind.allCases.map(\.rawValue) == ["item", "drillDown", "choice"])
    }

    @Test func thePluginABIIsTheOneOfServiceEstimates() {
        #expect(RemixPluginABI.version == 5)
    }
}
