import Classifieds
import RemixKit

/// The role of features that fill Marketplace's `insertion` slot: flows that end with a
/// published advert (`.completed(result: advertID)`) or a cancellation.
public enum InsertionRole {
    /// The role name slots and features declare.
    public static let name = "insertion"
}

/// Keeps one insertion attempt's draft and publishes it, reporting the outcome as domain events.
public final class InsertionInteractor {
    /// The draft being built.
    public var draft: Draft { currentDraft }
    /// Private, so that the compiler sees every access and checks their exclusive access when
    /// compiling.
    private var currentDraft = Draft()
    private let advertService: any AdvertService
    private let events: any EventSink

    /// Makes an interactor with an empty draft.
    public init(advertService: any AdvertService, events: any EventSink) {
        self.advertService = advertService
        self.events = events
    }

    /// Sets the draft's title.
    public func update(title: String) { currentDraft.title = title }

    /// Sets the draft's group.
    public func update(groupID: GroupID?) { currentDraft.groupID = groupID }

    /// Publishes the draft: `advert_published` on success, `publish_failed` on error.
    public func publish(completion: (AsyncResult<AdvertID>) -> Void) {
        let draft = currentDraft
        advertService.publish(draft: draft) { result in
            switch result {
            case .success(let advertID):
                events.record(DomainEvent("advert_published", [
                    EventField("advert", .string(advertID)),
                    EventField("group", .string(draft.groupID ?? "")),
                    EventField("title", .string(draft.title ?? "")),
                ]))
            case .error:
                events.record(DomainEvent("publish_failed", [
                    EventField("group", draft.groupID.map(EventValue.string) ?? .null),
                ]))
            }
            completion(result)
        }
    }
}

/// The events an insertion flow that publishes through ``InsertionInteractor`` emits.
public enum InsertionEvents {
    /// `advert_published` and `publish_failed`.
    public static let publishing = [
        DomainEventSpec("advert_published", fields: ["advert", "group", "title"]),
        DomainEventSpec("publish_failed", fields: ["group"]),
    ]
}
