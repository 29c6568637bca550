extension SimulatedUser {
    /// One intent being pursued. A class: the user reads it several times per step, and a copy
    /// of the intent and its values would retain each of their strings and arrays.
    final class Attempt {
        private let sharedIntent: SharedIntent
        var intent: Population.Intent { sharedIntent.value }
        let values: Population.IntentValues
        var started = false
        var errorPending = false
        var errors = 0

        init(intent: SharedIntent, values: Population.IntentValues) {
            sharedIntent = intent
            self.values = values
        }
    }
}
