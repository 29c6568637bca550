import Classifieds
import Marketplace
import RemixKit

/// Insertion as a three-step wizard: the title, then the group one level of the tree at a time,
/// then a review that publishes. It reuses Marketplace's `InsertionInteractor` (the draft and
/// publishing, with its domain events), Classifieds' `GroupSelectionInteractor` (levels, leaf or
/// parent) and the title step's formatter, so it behaves like the built-in flows where they overlap.
public final class WizardInsertionFeature: FlowFeature {
    /// Makes the wizard's views; tests and front ends replace the headless ones.
    public struct Views {
        /// Makes the title step.
        public var makeTitleView: () -> any WizardTitleView
        /// Makes one level of the group step.
        public var makeGroupView: () -> any WizardGroupView
        /// Makes the review step.
        public var makeReviewView: () -> any WizardReviewView

        /// Makes the factories; the defaults make headless views.
        public init(makeTitleView: @escaping () -> any WizardTitleView = { HeadlessWizardTitleView() },
                    makeGroupView: @escaping () -> any WizardGroupView = { HeadlessWizardGroupView() },
                    makeReviewView: @escaping () -> any WizardReviewView = { HeadlessWizardReviewView() }) {
            self.makeTitleView = makeTitleView
            self.makeGroupView = makeGroupView
            self.makeReviewView = makeReviewView
        }
    }

    private let groupService: any GroupService
    private let advertService: any AdvertService
    private let events: any EventSink
    private let views: Views

    /// Makes the feature.
    public init(groupService: any GroupService, advertService: any AdvertService, events: any EventSink,
                views: Views = Views()) {
        self.groupService = groupService
        self.advertService = advertService
        self.events = events
        self.views = views
    }

    public func makeCoordinator(navigation: any NavigationWireframe) -> any FlowCoordinator {
        WizardInsertionCoordinator(
            navigation: navigation, groups: GroupSelectionInteractor(groupService: groupService),
            interactor: InsertionInteractor(advertService: advertService, events: events), views: views)
    }
}
