// smartq-scheduler.h - smartq's exact backends as ns-3 event schedulers
//
// C++17, for ns-3 3.37 (Debian's libns3-dev); outside the C99 core and
// the single header. Include it anywhere; in exactly one translation unit
// of the program write SMARTQ_NS3_REGISTER() at namespace scope, which
// registers the TypeIds
//
//   ns3::SmartqRbScheduler  ns3::SmartqGavlScheduler
//   ns3::SmartqBinomScheduler  ns3::SmartqLadderScheduler
//
// so that --SchedulerType=ns3::SmartqLadderScheduler, NS_GLOBAL_VALUE and
// Simulator::SetScheduler find them like ns-3's own schedulers.
//
// Order. ns-3 pops by (ts, uid), as MapScheduler compares. The queue
// holds one node per group of events of one ts (the key), and a group
// keeps its events in uid order. Groups of one ts (there can be several)
// follow each other in queue order, FIFO on every exact backend, and each
// holds only uids above those of the groups before it. An event whose uid
// is above every queued uid of its ts (every uid ns-3 3.37 hands out
// before the 32-bit uid wraps, and every event SetScheduler re-inserts;
// told in O(1) by two running maxima, or by the last uid of the last
// group of its ts, when the cache below has that group) goes at the back
// of that group, or starts a new group; any other (after the wrap) goes,
// by SQ_FIND, into the first group of its ts holding a larger uid, at its
// place. So the order is MapScheduler's for any uids, with no tie kind.
//
// Why groups: ns-3's ts are integer nanoseconds, and in ns-3's own
// benchmark some hundreds of pending events share each ts; the queue
// then holds about a thousand nodes instead of 10^5 or 10^6, its upper
// levels stay in cache, and most inserts append to a group.  A direct-
// mapped cache from ts to the newest group created for it finds the
// group; a miss (a new ts, or one the cache lost) starts a new group.
//
// Remove. ns-3's Remove names the event by (ts, uid): SQ_FIND looks up
// the group of that ts holding the uid, O(log n + ties) on the trees,
// the one bucket or list the ts routes to on ladder, a pruned walk on
// binom. No side index.
//
// Memory: groups and events come from pools grown in blocks; no
// allocation per event once the pools have reached the peak population.
// Blocks of 2 MB and more ask Linux for transparent huge pages
// (MADV_HUGEPAGE).
#ifndef SMARTQ_NS3_SCHEDULER_H
#define SMARTQ_NS3_SCHEDULER_H

#include "smartq.h"

#include <ns3/global-value.h>
#include <ns3/object-factory.h>
#include <ns3/scheduler.h>
#include <ns3/string.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__linux__) && __has_include(<sys/mman.h>)
#include <sys/mman.h>
#endif

namespace smartq
{

// An event past the first of its group: ns-3's pointer, uid and context,
// and the next event (or the pool's free list). 24 bytes in a 32-byte
// slot, so two share a cache line and none straddles two.
struct alignas(32) EventRec
{
    EventRec* next;
    ns3::EventImpl* impl;
    uint32_t uid;
    uint32_t context;
};

// A group: the queue's node (its key is the ts), the group's first event
// in place (so a group of one, the common case when ts rarely repeat, is
// one node), and the rest in uid order, a circular list named by its
// last. 56 or 64 bytes, aligned to a cache line.
template <class Link>
struct alignas(64) Group
{
    Link link;
    ns3::EventImpl* impl;
    union {
        EventRec* more; // while queued: the last of the rest, or NULL
        Group* next;    // the pool's free list, while not
    };
    uint32_t uid;
    uint32_t context;
};

// A pool of T: blocks that double, a free list threaded through T::next,
// last freed first out (the event just popped is the next inserted).
// Blocks of 2 MB and more are 2 MB-aligned and, on Linux, marked for
// transparent huge pages (Debian's default mode is "madvise"): a queue's
// walk touches nodes all over the pool, and at 10^6 events 4 KB pages
// would need thousands of TLB entries, 2 MB pages a few dozen.
template <class T>
class Pool
{
  public:
    // A free T; @init prepares each new one once, when its block comes.
    template <class Init>
    T* Alloc(Init init)
    {
        if (!m_free)
        {
            size_t sz = m_blocks.empty() ? 256 : m_capacity;
            T* b = NewBlock(sz);
            for (size_t i = 0; i < sz; i++)
            {
                new (&b[i]) T;
                init(&b[i]);
                b[i].next = (i + 1 < sz) ? &b[i + 1] : nullptr;
            }
            m_free = b;
            m_capacity += sz;
        }
        T* t = m_free;
        m_free = t->next;
        return t;
    }

    void Free(T* t)
    {
        t->next = m_free;
        m_free = t;
    }

  private:
    T* NewBlock(size_t sz)
    {
        static_assert(std::is_trivially_destructible<T>::value,
                      "a block is freed without destroying its nodes");
        const size_t huge = size_t(2) << 20;
        size_t bytes = sz * sizeof(T);
        size_t align = alignof(T);
        if (bytes >= huge)
        {
            bytes = (bytes + huge - 1) / huge * huge;
            align = huge;
        }
        void* p = std::aligned_alloc(align, bytes);
        if (!p)
        {
            throw std::bad_alloc();
        }
#ifdef MADV_HUGEPAGE
        if (align == huge)
        {
            (void)madvise(p, bytes, MADV_HUGEPAGE);
        }
#endif
        m_blocks.emplace_back(static_cast<T*>(p));
        return m_blocks.back().get();
    }

    // T is trivially destructible: a block is freed as it came.
    struct BlockFree
    {
        void operator()(T* b) const
        {
            std::free(b);
        }
    };

    std::vector<std::unique_ptr<T, BlockFree>> m_blocks;
    T* m_free = nullptr;
    size_t m_capacity = 0;
};

// One tag type per scheduler; it binds the macro API to kind K.
#define SMARTQ_NS3_KIND(K, NAME)                                          \
    struct K                                                              \
    {                                                                     \
        using queue = SQ_QUEUE(K);                                        \
        using node = SQ_NODE(K);                                          \
        static const char* type_name()                                    \
        {                                                                 \
            return "ns3::Smartq" NAME "Scheduler";                        \
        }                                                                 \
        static void init(queue* q) { SQ_INIT(K, q); }                     \
        static void node_init(node* n) { SQ_NODE_INIT(K, n); }            \
        static uint64_t key(const node* n) { return SQ_KEY(K, n); }       \
        static void enqueue(queue* q, node* n, uint64_t k)                \
        {                                                                 \
            (void)SQ_ENQUEUE(K, q, n, k);                                 \
        }                                                                 \
        static node* first(const queue* q) { return SQ_FIRST(K, q); }    \
        static void dequeue(queue* q, node* n) { (void)SQ_DEQUEUE(K, q, n); } \
        static bool empty(const queue* q) { return SQ_EMPTY(K, q); }      \
        static node* find(const queue* q, uint64_t k,                     \
                          bool (*match)(const node*, void*), void* a)     \
        {                                                                 \
            return SQ_FIND(K, q, k, match, a);                            \
        }                                                                 \
    };
SMARTQ_NS3_KIND(rb, "Rb")
SMARTQ_NS3_KIND(gavl, "Gavl")
SMARTQ_NS3_KIND(binom, "Binom")
SMARTQ_NS3_KIND(ladder, "Ladder")
#undef SMARTQ_NS3_KIND

} // namespace smartq

namespace ns3
{

template <class K>
class SmartqScheduler : public Scheduler
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId(K::type_name())
                                .SetParent<Scheduler>()
                                .SetGroupName("Core")
                                .template AddConstructor<SmartqScheduler<K>>();
        return tid;
    }

    SmartqScheduler()
        : m_q(new typename K::queue)
    {
        K::init(m_q.get());
    }

    ~SmartqScheduler() override = default;

    void Insert(const Event& ev) override
    {
        uint64_t ts = ev.key.m_ts;
        uint32_t uid = ev.key.m_uid;
        // Above every queued uid of its ts: at the back of the last group.
        // (The maxima start at 0: a first event of uid 0 takes the find,
        // on an empty queue.)
        bool fresh = uid > m_maxUid;
        bool above = ts > m_maxTs || (ts == m_maxTs && uid > m_maxTsUid);
        if (fresh)
        {
            m_maxUid = uid;
        }
        if (above)
        {
            m_maxTs = ts;
            m_maxTsUid = uid;
        }
        bool last = fresh || above;
        Grp*& slot = m_cache[Hash(ts)];
        Grp* g = slot;
        bool hit = g && K::key(&g->link) == ts; // g: the last group of ts
        // Not known to be above every queued uid of ts (after the wrap):
        // the last group's last uid tells, on a hit; else ask find.
        if (!last && !(hit && uid > LastUid(g)))
        {
            if (Grp* f = Of(K::find(m_q.get(), ts, &LastAbove, &uid)))
            {
                Place(f, ev); // the first group of ts with a larger uid
                return;
            }
        }
        if (hit)
        {
            Rec* e = NewRec(ev);
            if (g->more)
            {
                e->next = g->more->next;
                g->more->next = e;
            }
            else
            {
                e->next = e;
            }
            g->more = e;
            return;
        }
        g = m_groups.Alloc([](Grp* n) { K::node_init(&n->link); });
        m_ngroups++;
        g->impl = ev.impl;
        g->uid = uid;
        g->context = ev.key.m_context;
        g->more = nullptr;
        K::enqueue(m_q.get(), &g->link, ts);
        slot = g;
    }

    // Groups queued (bench-ns3 SHOW_GROUPS=1 prints it).
    size_t Groups() const
    {
        return m_ngroups;
    }

    bool IsEmpty() const override
    {
        return K::empty(m_q.get());
    }

    Event PeekNext() const override
    {
        return ToEvent(Of(K::first(m_q.get())));
    }

    Event RemoveNext() override
    {
        Grp* g = Of(K::first(m_q.get()));
        Event ev = ToEvent(g);
        DropFirst(g);
        return ev;
    }

    void Remove(const Event& ev) override
    {
        uint32_t uid = ev.key.m_uid;
        Grp* g = Of(K::find(m_q.get(), ev.key.m_ts, &HasUid, &uid));
        if (!g)
        {
            std::fprintf(stderr, "SmartqScheduler::Remove: event uid %u is "
                         "not queued\n", uid);
            std::abort();
        }
        if (g->uid == uid)
        {
            DropFirst(g);
            return;
        }
        Rec* prev = g->more;
        Rec* e = prev->next;
        while (e->uid != uid)
        {
            prev = e;
            e = e->next;
        }
        if (e == prev)
        {
            g->more = nullptr;
        }
        else
        {
            prev->next = e->next;
            if (g->more == e)
            {
                g->more = prev;
            }
        }
        m_recs.Free(e);
    }

  private:
    using Rec = smartq::EventRec;
    using Grp = smartq::Group<typename K::node>;

    static Grp* Of(typename K::node* l)
    {
        return l ? sq_entry(l, Grp, link) : nullptr;
    }

    static Event ToEvent(const Grp* g)
    {
        Event ev;
        ev.impl = g->impl;
        ev.key.m_ts = K::key(&g->link);
        ev.key.m_uid = g->uid;
        ev.key.m_context = g->context;
        return ev;
    }

    Rec* NewRec(const Event& ev)
    {
        Rec* e = m_recs.Alloc([](Rec*) {});
        e->impl = ev.impl;
        e->uid = ev.key.m_uid;
        e->context = ev.key.m_context;
        return e;
    }

    // Take @g's first event out: the first of the rest takes its place,
    // or the group, empty, leaves the queue and the cache.
    void DropFirst(Grp* g)
    {
        if (Rec* last = g->more)
        {
            Rec* e = last->next;
            if (e == last)
            {
                g->more = nullptr;
            }
            else
            {
                last->next = e->next;
            }
            g->impl = e->impl;
            g->uid = e->uid;
            g->context = e->context;
            m_recs.Free(e);
            return;
        }
        Grp*& slot = m_cache[Hash(K::key(&g->link))];
        if (slot == g)
        {
            slot = nullptr;
        }
        K::dequeue(m_q.get(), &g->link);
        m_groups.Free(g);
        m_ngroups--;
    }

    // @ev, whose uid is below @g's last, into @g at its place by uid.
    void Place(Grp* g, const Event& ev)
    {
        Rec* e = NewRec(ev);
        if (ev.key.m_uid < g->uid)
        {
            // e becomes the first; the old first heads the rest
            std::swap(e->impl, g->impl);
            std::swap(e->uid, g->uid);
            std::swap(e->context, g->context);
            if (!g->more)
            {
                e->next = e;
                g->more = e;
                return;
            }
        }
        Rec* prev = g->more; // the last, whose next is the first
        while (prev->next->uid < e->uid && prev->next != g->more)
        {
            prev = prev->next;
        }
        e->next = prev->next;
        prev->next = e;
    }

    // find's matches: the group holding uid *@arg; the first group whose
    // last uid is above *@arg
    static bool HasUid(const typename K::node* l, void* arg)
    {
        uint32_t uid = *static_cast<const uint32_t*>(arg);
        const Grp* g = sq_entry_const(l, Grp, link);
        if (g->uid == uid)
        {
            return true;
        }
        const Rec* e = g->more;
        while (e)
        {
            e = e->next; // from the first of the rest, round to the last
            if (e->uid == uid)
            {
                return true;
            }
            e = e == g->more ? nullptr : e;
        }
        return false;
    }

    static bool LastAbove(const typename K::node* l, void* arg)
    {
        return LastUid(sq_entry_const(l, Grp, link)) >
               *static_cast<const uint32_t*>(arg);
    }

    static uint32_t LastUid(const Grp* g)
    {
        return g->more ? g->more->uid : g->uid;
    }

    // The cache: 2^12 slots (32 KB). In ns-3's benchmark at 10^6 events
    // about a thousand ts are pending; 2^10 slots made 2.4 groups a ts
    // there, 2^12 one. Fibonacci hashing spreads a window of consecutive
    // ts and a grid of ts alike.
    static constexpr unsigned kCacheBits = 12;

    static size_t Hash(uint64_t ts)
    {
        return (size_t)((ts * 0x9E3779B97F4A7C15ull) >> (64 - kCacheBits));
    }

    std::unique_ptr<typename K::queue> m_q;
    smartq::Pool<Grp> m_groups;
    smartq::Pool<Rec> m_recs;
    Grp* m_cache[size_t(1) << kCacheBits] = {};
    size_t m_ngroups = 0;
    uint32_t m_maxUid = 0;  // the largest uid inserted
    uint64_t m_maxTs = 0;   // the largest (ts, uid) inserted
    uint32_t m_maxTsUid = 0;
};

} // namespace ns3
namespace smartq
{
// NS_GLOBAL_VALUE=SchedulerType=ns3::Smartq...: libns3-core reads it while
// it initialises, before our TypeIds exist, and drops the unknown name
// silently (MapScheduler stays). Apply it again once they are registered.
inline void ns3_reapply_global_scheduler()
{
    const char* env = std::getenv("NS_GLOBAL_VALUE");
    if (!env)
    {
        return;
    }
    std::string s(env);
    size_t at = 0;
    while (at <= s.size())
    {
        size_t end = s.find(';', at);
        if (end == std::string::npos)
        {
            end = s.size();
        }
        std::string item = s.substr(at, end - at);
        const std::string name = "SchedulerType=";
        if (item.compare(0, name.size(), name) == 0)
        {
            std::string value = item.substr(name.size());
            ns3::TypeId tid;
            if (ns3::TypeId::LookupByNameFailSafe(value, &tid))
            {
                ns3::GlobalValue::Bind("SchedulerType",
                                       ns3::StringValue(value));
            }
        }
        at = end + 1;
    }
}
} // namespace smartq

// In one translation unit: register the TypeIds, then re-apply
// NS_GLOBAL_VALUE's SchedulerType (static initialisation, before main).
#define SMARTQ_NS3_REGISTER()                                             \
    namespace smartq                                                      \
    {                                                                     \
    static const bool ns3_registered = [] {                               \
        ns3::SmartqScheduler<rb>::GetTypeId();                            \
        ns3::SmartqScheduler<gavl>::GetTypeId();                          \
        ns3::SmartqScheduler<binom>::GetTypeId();                         \
        ns3::SmartqScheduler<ladder>::GetTypeId();                        \
        ns3_reapply_global_scheduler();                                   \
        return true;                                                      \
    }();                                                                  \
    }                                                                     \
    static_assert(true, "")

#endif // SMARTQ_NS3_SCHEDULER_H
