import Foundation
import RemixTestSupport

/// Experiments on marketplace/insertion that use what the shipped ones do not: hash version 1,
/// partial coverage, uneven weights, another hash attribute, hash filters, forcing (running and
/// stopped, with a namespace), drafts, inactive and stopped experiments, `$notInGroup` and a
/// schedule. The live ones share a filter seed with disjoint ranges, as `remix validate` requires.
enum TrickyExperiments {
    static let head = "app: marketplace\nslot: insertion\n"

    static let files: [String: String] = [
        "t1-coverage-v1.yaml": """
            key: t1-coverage-v1
            \(head)hashVersion: 1
            coverage: 0.6
            weights: [0.2, 0.8]
            filters:
              - {seed: tricky, ranges: [[0, 0.2]]}
            condition:
              country: {$nin: [DE]}
            variations:
              - {key: manual, feature: ManualGroupInsertion}
              - {key: auto, feature: AutoGroupInsertion}
            """,
        "t2-device-hash.yaml": """
            key: t2-device-hash
            \(head)hashVersion: 2
            hashAttribute: deviceId
            seed: device-seed
            filters:
              - {seed: tricky, attribute: id, ranges: [[0.2, 0.4]], hashVersion: 2}
              - {seed: other, attribute: deviceId, ranges: [[0, 0.7]], hashVersion: 1}
            condition:
              platform: {$exists: true}
            variations:
              - {key: a, feature: ManualGroupInsertion}
              - {key: b, feature: AlternatingInsertion, params: {flows: "ManualGroupInsertion,AutoGroupInsertion"}}
              - {key: c, feature: AutoGroupInsertion, params: {errorToastSeconds: 2.5}}
            """,
        "t3-forced.yaml": """
            key: t3-forced
            \(head)hashVersion: 2
            force: 1
            coverage: 0.8
            weights: [0.3, 0.7]
            filters:
              - {seed: tricky, ranges: [[0.4, 0.55]]}
            condition:
              appVersion: {$vgte: "2.0"}
            variations:
              - {key: manual, feature: ManualGroupInsertion}
              - {key: auto, feature: AutoGroupInsertion, params: {loadingMessage: "Forced!"}}
            """,
        "t4-stopped-forced.yaml": """
            key: t4-stopped-forced
            \(head)status: stopped
            hashVersion: 1
            force: 0
            namespace: [tricky-ns, 0.1, 0.5]
            coverage: 0.5
            condition:
              $or:
                - platform: tablet
                - appVersion: {$vgt: "2.0.1"}
            variations:
              - {key: alternating, feature: AlternatingInsertion, params: {flows: "AutoGroupInsertion,ManualGroupInsertion"}}
              - {key: manual, feature: ManualGroupInsertion}
            """,
        "t5-draft.yaml": """
            key: t5-draft
            \(head)status: draft
            hashVersion: 2
            variations:
              - {key: manual, feature: ManualGroupInsertion}
              - {key: auto, feature: AutoGroupInsertion}
            """,
        "t6-inactive.yaml": """
            key: t6-inactive
            \(head)active: false
            hashVersion: 2
            variations:
              - {key: manual, feature: ManualGroupInsertion}
              - {key: auto, feature: AutoGroupInsertion}
            """,
        "t7-stopped.yaml": """
            key: t7-stopped
            \(head)status: stopped
            hashVersion: 2
            variations:
              - {key: manual, feature: ManualGroupInsertion}
              - {key: auto, feature: AutoGroupInsertion}
            """,
        "t8-groups.yaml": """
            key: t8-groups
            \(head)hashVersion: 2
            filters:
              - {seed: tricky, ranges: [[0.55, 0.8]]}
            condition:
              country: {$inGroup: qa-countries}
              id: {$notInGroup: beta-testers}
            variations:
              - {key: x, feature: ManualGroupInsertion}
              - {key: y, feature: AutoGroupInsertion}
            """,
        "t9-scheduled.yaml": """
            key: t9-scheduled
            \(head)hashVersion: 2
            seed: s9
            schedule: {start: 2026-12-01, end: 2027-01-01}
            filters:
              - {seed: tricky, ranges: [[0.8, 1]]}
            variations:
              - {key: one, feature: ManualGroupInsertion}
              - {key: two, feature: AutoGroupInsertion}
              - {key: three, feature: AlternatingInsertion}
            """,
        "saved-groups.yaml": """
            beta-testers: [user-1, user-2, qa-tablet]
            qa-countries: [DE, FR]
            unused: [nobody]
            """,
    ]

    /// The keys of the experiments exported as force rules (which import cannot read back).
    static let forced: Set<String> = ["t3-forced", "t4-stopped-forced"]

    /// A folder holding the files, without those of the experiments in `excluding`.
    static func folder(excluding: Set<String> = []) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for (name, text) in files where !excluding.contains(String(name.dropLast(5))) {
            try folder.write(name, text + "\n")
        }
        return folder
    }
}
