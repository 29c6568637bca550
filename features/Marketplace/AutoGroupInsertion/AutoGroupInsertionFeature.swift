import Classifieds
import RemixKit

/// Sets the draft's title, asks for a recommended group and stores it, then reports back.
public final class AutoGroupInsertionInteractor {
    private let insertion: InsertionInteractor
    private let recommendations: any GroupRecommendationService
    private let events: any EventSink

    /// Makes the interactor around a plain insertion interactor.
    public init(insertion: InsertionInteractor, recommendations: any GroupRecommendationService, events: any EventSink) {
        self.insertion = insertion
        self.recommendations = recommendations
        self.events = events
    }

    /// Stores `title` and the group recommended for it; `completion` runs when the group is known.
    public func update(title: String, completion: @escaping () -> Void) {
        insertion.update(title: title)
        recommendations.recommendGroup(for: title) { [insertion, events] groupID in
            insertion.update(groupID: groupID)
            events.record(DomainEvent("group_recommended", [EventField("group", .string(groupID))]))
            completion()
        }
    }

    /// Publishes the draft.
    public func publish(completion: (AsyncResult<AdvertID>) -> Void) {
        insertion.publish(completion: completion)
    }
}

/// Insertion with only a title: the group is recommended from the title's keywords.
public final class AutoGroupInsertionFeature: FlowFeature {
    private let advertService: any AdvertService
    private let recommendations: any GroupRecommendationService
    private let events: any EventSink
    private let wireframes: any WireframeFactory
    private let loadingMessage: String
    private let errorDuration: Duration
    private let makeTitleView: () -> any TextEntryStepView

    /// Makes the feature; the toasts come from `wireframes`.
    public init(advertService: any AdvertService, recommendations: any GroupRecommendationService,
                events: any EventSink, wireframes: any WireframeFactory,
                loadingMessage: String = "Autoselecting group...", errorDuration: Duration = .seconds(2),
                makeTitleView: @escaping () -> any TextEntryStepView = {
                    HeadlessTextEntryStepView(screenName: "title", purpose: .title)
                }) {
        self.advertService = advertService
        self.recommendations = recommendations
        self.events = events
        self.wireframes = wireframes
        self.loadingMessage = loadingMessage
        self.errorDuration = errorDuration
        self.makeTitleView = makeTitleView
    }

    public func makeCoordinator(navigation: any NavigationWireframe) -> any FlowCoordinator {
        let insertion = InsertionInteractor(advertService: advertService, events: events)
        return AutoGroupInsertionCoordinator(
            navigation: navigation, wireframes: wireframes,
            interactor: AutoGroupInsertionInteractor(insertion: insertion, recommendations: recommendations, events: events),
            titleView: makeTitleView(), loadingMessage: loadingMessage, errorDuration: errorDuration)
    }
}

/// Title step → loading toast → recommendation → publish; a failed publish shows an error toast
/// for a while and leaves the user on the title step. Back cancels and discards the title.
final class AutoGroupInsertionCoordinator: FlowCoordinator, TextEntryStepViewDelegate {
    var delegate: (any FlowCoordinatorDelegate)? {
        get { weakDelegate }
        set { weakDelegate = newValue }
    }
    /// Private, so that the compiler sees every access and checks their exclusive access when
    /// compiling (the protocol sets ``delegate`` in place otherwise).
    private weak var weakDelegate: (any FlowCoordinatorDelegate)?
    private let navigation: any NavigationWireframe
    private let wireframes: any WireframeFactory
    private let interactor: AutoGroupInsertionInteractor
    private let titleView: any TextEntryStepView
    private let loadingMessage: String
    private let errorDuration: Duration

    init(navigation: any NavigationWireframe, wireframes: any WireframeFactory, interactor: AutoGroupInsertionInteractor,
         titleView: any TextEntryStepView, loadingMessage: String, errorDuration: Duration) {
        self.navigation = navigation
        self.wireframes = wireframes
        self.interactor = interactor
        self.titleView = titleView
        self.loadingMessage = loadingMessage
        self.errorDuration = errorDuration
    }

    func start() {
        titleView.delegate = self
        titleView.viewData = TitleStepFormatter.prepare(title: nil)
        navigation.push(titleView)
    }

    func didTapNext(withText text: String) {
        navigation.present(wireframes.makeLoadingToast(message: loadingMessage))
        interactor.update(title: text) { [weak self] in
            guard let self else { return }
            navigation.dismiss()
            interactor.publish { result in
                switch result {
                case .success(let advertID):
                    delegate?.flowCoordinator(self, didFinishWith: .completed(result: advertID))
                case .error:
                    navigation.present(wireframes.makeToast(message: "Could not publish advert"), for: errorDuration)
                }
            }
        }
    }

    func didGoBack(withText text: String) {
        delegate?.flowCoordinator(self, didFinishWith: .cancelled)
    }
}
