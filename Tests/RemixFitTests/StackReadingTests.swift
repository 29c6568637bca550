@testable import RemixFit
import Testing

/// How the fit and the fidelity report read a logged navigation stack (`screen` events' `stack`):
/// the front screen and the contexts along its pane, with separators inside a context (an advert
/// title or group name may hold ` > `, ` | ` or ` ^ `) read as text, as `Route` reads them.
@Suite struct StackReadingTests {
    @Test func theFrontScreenIsTheTopOfTheTopLayersFirstPane() {
        #expect(SessionSegments.front(ofStack: "adverts | ") == "adverts")
        #expect(SessionSegments.front(ofStack: "adverts > groups > title | ") == "title")
        #expect(SessionSegments.front(ofStack: "adverts |  ^ groups > groups(Bicycles)") == "groups(Bicycles)")
    }

    @Test func separatorsInsideAContextAreText() {
        #expect(SessionSegments.front(ofStack: "adverts > groups(Cars > Vans) | ") == "groups(Cars > Vans)")
        #expect(SessionSegments.front(ofStack: "adverts | item(x) ^ groups > groups(A ^ B | C)") == "groups(A ^ B | C)")
        #expect(SessionSegments.front(ofStack: "adverts > item(Red (big) > bike) | detail") == "item(Red (big) > bike)")
        #expect(SessionSegments.contexts(ofStack: "adverts > groups(Cars > Vans) > groups(Off road) | ") == ["Cars > Vans", "Off road"])
        #expect(SessionSegments.baseName(SessionSegments.front(ofStack: "adverts > groups(Cars > Vans) | ")) == "groups")
    }
}
