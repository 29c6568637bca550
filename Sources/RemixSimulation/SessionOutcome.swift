/// How one intent of a simulated session ended.
package enum IntentOutcome: String, Sendable, CaseIterable {
    /// The user did what they came to do (its success event was seen, or they were back where
    /// they began, for intents without one).
    case achieved
    /// The user gave up on a screen, by the persona's chance for it.
    case abandoned
    /// The user gave up after an error (the screen did not move on, and no success).
    case error
    /// The screen offered nothing that advances the intent, and no way back.
    case stuck
    /// The session hit the step limit.
    case exhausted
}

/// What became of one intent, and on which screen.
package struct IntentResult: Sendable, Equatable {
    /// The intent's name.
    package var intent: String
    /// How it ended.
    package var outcome: IntentOutcome
    /// The screen (ScreenContent.name) it ended on.
    package var screen: String
}
