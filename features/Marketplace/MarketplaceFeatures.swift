import Classifieds
import RemixKit

extension MarketplaceModule {
    /// Every Marketplace feature, by name.
    static let features: [FeatureDescriptor] = [
        FeatureDescriptor(
            name: "Discovery",
            summary: "Marketplace root: advert list, filter, detail and the insertion slot (phone and tablet)",
            events: [
                DomainEventSpec("insertion_started", fields: ["flow"]), DomainEventSpec("insertion_completed", fields: ["durationMs"]),
                DomainEventSpec("insertion_cancelled"), DomainEventSpec("filter_applied", fields: ["group"]),
                DomainEventSpec("advert_viewed", fields: ["advert"]),
            ]
        ) { context in
            let session = context.session
            let adverts = try session.services.resolve((any AdvertService).self)
            let groups = try session.services.resolve((any GroupService).self)
            return DiscoveryFeature(dependencies: .init(
                advertService: adverts, groupService: groups,
                advertList: try session.makeFeature(named: "AdvertList", as: AdvertListFeature.self),
                groupSelection: try session.makeFeature(named: "GroupSelection", as: GroupSelectionFeature.self),
                insertion: try session.slot(insertionSlot), events: session.events, clock: session.clock))
        },
        FeatureDescriptor(
            name: "AdvertList",
            summary: "The list of adverts, filtered by exactly one group or showing all"
        ) { context in
            AdvertListFeature(advertService: try context.session.services.resolve((any AdvertService).self),
                              groupService: try context.session.services.resolve((any GroupService).self))
        },
        FeatureDescriptor(
            name: "ManualGroupInsertion",
            summary: "Insert an advert: pick a leaf group, then type the title (remembered on back)",
            role: InsertionRole.name, events: InsertionEvents.publishing
        ) { context in
            let session = context.session
            return ManualGroupInsertionFeature(
                groupSelection: try session.makeFeature(named: "GroupSelection", as: GroupSelectionFeature.self),
                advertService: try session.services.resolve((any AdvertService).self), events: session.events)
        },
        FeatureDescriptor(
            name: "AutoGroupInsertion",
            summary: "Insert an advert: type the title; the group is recommended from its keywords",
            role: InsertionRole.name,
            parameters: [
                ParameterSpec("loadingMessage", default: .string("Autoselecting group..."),
                              summary: "The toast shown while the group is chosen"),
                ParameterSpec("errorToastSeconds", default: .double(2),
                              summary: "How long the publish-failure toast stays"),
            ],
            events: InsertionEvents.publishing + [DomainEventSpec("group_recommended", fields: ["group"])]
        ) { context in
            let session = context.session
            let seconds = context.parameters.double("errorToastSeconds", or: 2)
            return AutoGroupInsertionFeature(
                advertService: try session.services.resolve((any AdvertService).self),
                recommendations: try session.services.resolve((any GroupRecommendationService).self),
                events: session.events, wireframes: session.window,
                loadingMessage: context.parameters.string("loadingMessage", or: "Autoselecting group..."),
                errorDuration: .milliseconds(Int64((max(0, seconds) * 1000).rounded())))
        },
        FeatureDescriptor(
            name: "AlternatingInsertion",
            summary: "Hands out its flows in turn (Manual, Auto, …), counting cancelled attempts",
            role: InsertionRole.name,
            parameters: [
                ParameterSpec("flows", default: .string(AlternatingFlows.defaultList),
                              summary: "Comma-separated insertion features to alternate, in order"),
            ],
            events: InsertionEvents.publishing + [DomainEventSpec("group_recommended", fields: ["group"])]
        ) { context in
            let flows = context.parameters.string("flows", or: "")
            // The default list, split once rather than in every session that fills the slot with it.
            let names = flows == AlternatingFlows.defaultList ? AlternatingFlows.defaultNames : AlternatingFlows.names(in: flows)
            guard !names.isEmpty, !names.contains("AlternatingInsertion") else {
                throw AlternationError.badFlows(names.joined(separator: ","))
            }
            let session = context.session
            let subfeatures = try names.map { name in
                try session.makeFlowFeature(named: name, filling: insertionSlot)
            }
            return AlternatingInsertionFeature(subfeatures: subfeatures)
        },
    ]
}

/// AlternatingInsertion's `flows` parameter: feature names separated by commas, spaces or tabs.
enum AlternatingFlows {
    /// The parameter's default.
    static let defaultList = "ManualGroupInsertion,AutoGroupInsertion"
    /// The default's names.
    static let defaultNames = names(in: defaultList)

    /// The names in `list`, in order.
    static func names(in list: String) -> [String] {
        list.utf8.split { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            .map { String(decoding: $0, as: UTF8.self) }
    }
}

/// A bad `flows` parameter for AlternatingInsertion.
enum AlternationError: Error, CustomStringConvertible {
    case badFlows(String)

    var description: String {
        switch self {
        case .badFlows(let flows):
            "AlternatingInsertion needs at least one other insertion feature in 'flows' (got '\(flows)')"
        }
    }
}
