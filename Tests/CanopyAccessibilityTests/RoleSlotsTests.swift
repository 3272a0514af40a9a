@testable import CanopyAccessibility
import Testing

/// The per-element role caches keep "not known yet", "no role" and each role name apart, and
/// stop keeping names (answering "not known" again) once they hold as many as they keep.
struct RoleSlotsTests {
    @Test func slotsKeepUnknownNoRoleAndEachNameApart() {
        var slots = RoleSlots()
        #expect(slots.isEmpty)
        slots.allocate(600)
        #expect(!slots.isEmpty)
        #expect(slots[0] == nil)
        slots.set(nil, at: 1)
        #expect(slots[1] == .some(nil))
        // 300 distinct names, then the first ones again.
        for position in 2..<600 { slots.set("role-\((position - 2) % 300)", at: position) }
        for position in 2..<600 {
            let index = (position - 2) % 300
            #expect(slots[position] == (index < 256 ? .some("role-\(index)") : nil), "\(position)")
        }
        slots.set("role-0", at: 0)
        #expect(slots[0] == .some("role-0"))
        slots.removeAll()
        #expect(slots.isEmpty)
    }
}
