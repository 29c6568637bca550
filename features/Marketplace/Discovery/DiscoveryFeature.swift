import Classifieds
import RemixKit

/// Marketplace's root: browse adverts, filter them by group, see one in detail, insert a new one
/// through whatever feature fills the insertion slot. Phones get a navigation flow, tablets a
/// split view with modal filter and insertion.
public final class DiscoveryFeature: Feature {
    /// What the Discovery coordinators are built from.
    public struct Dependencies {
        public var advertService: any AdvertService
        public var groupService: any GroupService
        public var advertList: AdvertListFeature
        public var groupSelection: GroupSelectionFeature
        /// The slot whose feature runs insertion; using it the first time is the exposure moment.
        public var insertion: Slot
        public var events: any EventSink
        /// The session's clock: `insertion_completed` says how long the insertion took. Without
        /// one, it says nothing of time.
        public var clock: (any Clock)?
        public var makeDetailView: () -> any ItemDetailView

        /// Collects the dependencies.
        public init(advertService: any AdvertService, groupService: any GroupService, advertList: AdvertListFeature,
                    groupSelection: GroupSelectionFeature, insertion: Slot, events: any EventSink, clock: (any Clock)? = nil,
                    makeDetailView: @escaping () -> any ItemDetailView = { HeadlessItemDetailView() }) {
            self.advertService = advertService
            self.groupService = groupService
            self.advertList = advertList
            self.groupSelection = groupSelection
            self.insertion = insertion
            self.events = events
            self.clock = clock
            self.makeDetailView = makeDetailView
        }
    }

    private let dependencies: Dependencies

    /// Makes the feature.
    public init(dependencies: consuming Dependencies) {
        self.dependencies = dependencies
    }

    /// The phone flow on one navigation stack, the window's root.
    public func makeNavigationCoordinator(window: Window) -> NavigationDiscoveryCoordinator {
        NavigationDiscoveryCoordinator(window: window, dependencies: dependencies,
                                       interactor: DiscoveryInteractor(advertService: dependencies.advertService))
    }

    /// The tablet flow in a split view, the window's root.
    public func makeSplitCoordinator(window: Window) -> SplitDiscoveryCoordinator {
        SplitDiscoveryCoordinator(window: window, dependencies: dependencies,
                                  interactor: DiscoveryInteractor(advertService: dependencies.advertService))
    }
}

extension DiscoveryFeature.Dependencies {
    /// Records a Discovery domain event.
    func record(_ name: String, _ fields: [EventField] = []) {
        events.record(DomainEvent(name, fields))
    }

    /// Fetches an advert and hands `show` its detail page, recording `advert_viewed`; a failed
    /// fetch shows nothing. (The phone pushes the page, the tablet shows it in the split's detail.)
    func showDetail(of advertID: AdvertID, from interactor: DiscoveryInteractor, in show: (any ItemDetailView) -> Void) {
        interactor.fetchDetail(advertID: advertID) { result in
            guard case .success(let advert) = result else { return }
            let view = makeDetailView()
            view.viewData = AdvertDetailFormatter.prepare(advert)
            record("advert_viewed", [EventField("advert", .string(advertID))])
            show(view)
        }
    }

    /// The insertion flow to run now, reporting `insertion_started` (nil if the slot's feature is no flow).
    func startInsertion(on navigation: any NavigationWireframe, delegate: any FlowCoordinatorDelegate) -> (any FlowCoordinator)? {
        guard let feature = insertion.useFlowFeature() else { return nil }
        let coordinator = feature.makeCoordinator(navigation: navigation)
        coordinator.delegate = delegate
        // What String(describing:) prints for a metatype, without its reflection and conformance checks.
        record("insertion_started", [EventField("flow", .string(_typeName(type(of: coordinator), qualified: false)))])
        coordinator.start()
        return coordinator
    }

    /// The session's time now, to give ``recordInsertion(_:startedAt:)`` when an insertion starts.
    var now: Duration? { clock?.now }

    /// Records how an insertion ended; a completed one with how long it took since `start`
    /// (`durationMs`: the time to publish).
    func recordInsertion(_ outcome: FlowOutcome, startedAt start: Duration?) {
        switch outcome {
        case .completed:
            guard let start, let now = clock?.now else { return record("insertion_completed") }
            record("insertion_completed", [EventField("durationMs", .int(Int((now - start).wholeMilliseconds)))])
        case .cancelled: record("insertion_cancelled")
        }
    }

    /// Records a filter change (`group` null when reset).
    func recordFilter(_ groupID: GroupID?) {
        record("filter_applied", [EventField("group", groupID.map(EventValue.string) ?? .null)])
    }
}
