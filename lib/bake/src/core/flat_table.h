// An insert-only hash table with open addressing (linear probing) for the bake's maps of millions
// of small keys (vertex cells, welded corners, directed edges): one array, no node per entry, so a
// lookup is a cache miss or two, not a pointer chase. Internal to lib/bake.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace clearway::bake {

// `Hash` maps a key to 64 well-mixed bits. Iteration (forEach) runs in slot order: it depends on
// the hash and the insertion history, so callers that need a fixed order must not take it from
// here.
template <class Key, class Value, class Hash> class FlatTable {
  public:
    explicit FlatTable(size_t expected = 0) { grow(expected); }

    // The value of `key`, set to `value` when the key was not there yet (then *inserted).
    Value& emplace(const Key& key, const Value& value, bool* inserted) {
        if (2 * (size_ + 1) > slots_.size()) grow(size_ + 1);
        Slot& slot = slots_[probe(key)];
        *inserted = !slot.used;
        if (!slot.used) {
            slot = {key, value, true};
            ++size_;
        }
        return slot.value;
    }
    Value* find(const Key& key) {
        Slot& slot = slots_[probe(key)];
        return slot.used ? &slot.value : nullptr;
    }
    const Value* find(const Key& key) const {
        const Slot& slot = slots_[probe(key)];
        return slot.used ? &slot.value : nullptr;
    }
    size_t size() const { return size_; }
    template <class F> void forEach(F&& f) const {
        for (const Slot& slot : slots_)
            if (slot.used) f(slot.key, slot.value);
    }

  private:
    struct Slot {
        Key key{};
        Value value{};
        bool used = false;
    };
    // The slot holding `key`, or the empty one where it would go (the table is never full).
    size_t probe(const Key& key) const {
        const size_t mask = slots_.size() - 1;
        size_t i = size_t(Hash()(key)) & mask;
        while (slots_[i].used && !(slots_[i].key == key))
            i = (i + 1) & mask;
        return i;
    }
    // Room for `count` keys at most half full.
    void grow(size_t count) {
        size_t slots = 16;
        while (slots < 2 * count)
            slots *= 2;
        if (slots <= slots_.size()) return;
        std::vector<Slot> old(slots);
        old.swap(slots_);
        for (const Slot& slot : old)
            if (slot.used) slots_[probe(slot.key)] = slot;
    }
    std::vector<Slot> slots_;
    size_t size_ = 0;
};

// A 64-bit multiply-xorshift mix (splitmix64's finaliser).
inline uint64_t mixBits(uint64_t h) {
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBull;
    return h ^ (h >> 31);
}

} // namespace clearway::bake
