@testable import RemixKit
import Testing

/// Suggestions for misspelt names: the nearest known name within a few edits.
@Suite struct NameSuggestionTests {
    @Test func aSwappedPairIsOneEdit() {
        #expect(NameSuggestion.editDistance(Array("titel"), Array("title")) == 1)
        #expect(NameSuggestion.editDistance(Array("titel"), Array("item")) == 2)
        #expect(NameSuggestion.nearest(to: "titel", among: ["adverts", "groups", "item", "title"]) == "title")
    }

    @Test func insertionsDeletionsAndReplacementsCountOneEach() {
        #expect(NameSuggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(NameSuggestion.editDistance([], Array("abc")) == 3)
        #expect(NameSuggestion.editDistance(Array("abc"), Array("abc")) == 0)
        #expect(NameSuggestion.nearest(to: "zzzzzz", among: ["personas"]) == nil)
    }
}
