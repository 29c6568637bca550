// Positioned reading of YAML files for modules and the host: every problem names
// file:line:column. Yams is re-exported so users of this module share its one copy.
@_exported import Yams
