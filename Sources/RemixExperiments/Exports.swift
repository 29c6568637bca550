// The assignment engine is its own target; experiments and their users see it through this module.
@_exported import GrowthBookAssignment
