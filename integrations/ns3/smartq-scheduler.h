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
// Order. ns-3 pops by (ts, uid), as MapScheduler compares. The key is
// ts; rb, gavl and binom are tie kinds (SQ_TIE) ordered among equal ts
// by uid, so they compare exactly as MapScheduler does, also after the
// 32-bit uid wraps. ladder has no tie kind and is FIFO among equal keys:
// there the FIFO order must equal the uid order. In 3.37 every uid comes
// from m_uid++ right before Insert, and SetScheduler re-inserts in (ts,
// uid) order, so it does; its Insert checks it in O(1) (a new uid above
// every uid seen, or a (ts, uid) above every one seen) and otherwise by a
// walk of the queue, and aborts if an equal-ts event with a larger uid is
// queued (after 2^32 events, when the uid wraps).
//
// Remove. ns-3's Remove names the event by (ts, uid): SQ_FIND looks up
// the node of that ts whose uid matches, O(log n + ties) on the trees,
// the one bucket or list the ts routes to on ladder, a pruned walk on
// binom. No side index.
//
// Memory: nodes come from a pool grown in blocks; no allocation per event
// once the pool has reached the peak population. Blocks of 2 MB and more
// ask Linux for transparent huge pages (MADV_HUGEPAGE).
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

// The scheduler's node: smartq's link (its key is the event's ts) and
// the rest of ns-3's event, 48 or 56 bytes, aligned to a 64-byte cache
// line: a queue's walk touches one line per node, where 48- or 56-byte
// strides would split most nodes over two.
template <class Link>
struct alignas(64) EventNode
{
    Link link;
    union {
        ns3::EventImpl* impl; // while queued
        EventNode* free;      // the pool's free list, while not
    };
    uint32_t uid;
    uint32_t context;
};

// ns-3's order among equal ts, as MapScheduler's: by uid.
template <class Link>
bool UidLess(const Link* a, const Link* b)
{
    return sq_entry_const(a, EventNode<Link>, link)->uid <
           sq_entry_const(b, EventNode<Link>, link)->uid;
}

// rb, gavl and binom order equal ts by uid themselves (tie kinds);
// ladder has no tie kind and relies on FIFO being uid order.
SQ_TIE(rb, ns3_rb, ns3_rb_less);
SQ_TIE(gavl, ns3_gavl, ns3_gavl_less);
SQ_TIE(binom, ns3_binom, ns3_binom_less);
static bool ns3_rb_less(const sq_ns3_rb_node* a, const sq_ns3_rb_node* b)
{
    return UidLess(a, b);
}
static bool ns3_gavl_less(const sq_ns3_gavl_node* a,
                          const sq_ns3_gavl_node* b)
{
    return UidLess(a, b);
}
static bool ns3_binom_less(const sq_ns3_binom_node* a,
                           const sq_ns3_binom_node* b)
{
    return UidLess(a, b);
}

// One tag type per scheduler; it binds the macro API to kind K.
#define SMARTQ_NS3_KIND(TAG, K, NAME, BY_UID)                             \
    struct TAG                                                            \
    {                                                                     \
        using queue = SQ_QUEUE(K);                                        \
        using node = SQ_NODE(K);                                          \
        static constexpr bool by_uid = BY_UID;                            \
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
        static node* pop(queue* q) { return SQ_POP(K, q); }               \
        static void dequeue(queue* q, node* n) { (void)SQ_DEQUEUE(K, q, n); } \
        static bool empty(const queue* q) { return SQ_EMPTY(K, q); }      \
        static size_t visit(const queue* q, void (*fn)(node*, void*), void* a) \
        {                                                                 \
            return SQ_VISIT(K, q, fn, a);                                 \
        }                                                                 \
        static node* find(const queue* q, uint64_t k,                     \
                          bool (*match)(const node*, void*), void* a)     \
        {                                                                 \
            return SQ_FIND(K, q, k, match, a);                            \
        }                                                                 \
    };
SMARTQ_NS3_KIND(rb, ns3_rb, "Rb", true)
SMARTQ_NS3_KIND(gavl, ns3_gavl, "Gavl", true)
SMARTQ_NS3_KIND(binom, ns3_binom, "Binom", true)
SMARTQ_NS3_KIND(ladder, ladder, "Ladder", false)
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
        Node* n = Alloc();
        n->impl = ev.impl;
        n->uid = ev.key.m_uid;
        n->context = ev.key.m_context;
        if (!K::by_uid)
        {
            CheckOrder(ev.key);
        }
        K::enqueue(m_q.get(), &n->link, ev.key.m_ts);
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
        Node* n = Of(K::pop(m_q.get()));
        Event ev = ToEvent(n);
        Free(n);
        return ev;
    }

    void Remove(const Event& ev) override
    {
        uint32_t uid = ev.key.m_uid;
        Node* n = Of(K::find(m_q.get(), ev.key.m_ts, &HasUid, &uid));
        if (!n)
        {
            std::fprintf(stderr, "SmartqScheduler::Remove: event uid %u is "
                         "not queued\n", uid);
            std::abort();
        }
        K::dequeue(m_q.get(), &n->link);
        Free(n);
    }

  private:
    using Node = smartq::EventNode<typename K::node>;


    static Node* Of(typename K::node* l)
    {
        return l ? sq_entry(l, Node, link) : nullptr;
    }

    // find's match: the event of that (ts, uid)
    static bool HasUid(const typename K::node* l, void* uid)
    {
        return sq_entry_const(l, Node, link)->uid ==
               *static_cast<const uint32_t*>(uid);
    }

    static Event ToEvent(const Node* n)
    {
        Event ev;
        ev.impl = n->impl;
        ev.key.m_ts = K::key(&n->link);
        ev.key.m_uid = n->uid;
        ev.key.m_context = n->context;
        return ev;
    }

    // The pool: blocks that double, a free list threaded through free,
    // last freed first out (the event just popped is the next inserted).
    Node* Alloc()
    {
        if (!m_free)
        {
            size_t sz = m_blocks.empty() ? 256 : m_capacity;
            Node* b = NewBlock(sz);
            for (size_t i = 0; i < sz; i++)
            {
                new (&b[i]) Node;
                K::node_init(&b[i].link);
                b[i].free = (i + 1 < sz) ? &b[i + 1] : nullptr;
            }
            m_free = b;
            m_capacity += sz;
        }
        Node* n = m_free;
        m_free = n->free;
        return n;
    }

    void Free(Node* n)
    {
        n->free = m_free;
        m_free = n;
    }

    // A block of @sz nodes. From 2 MB on it is 2 MB-aligned and, on Linux,
    // marked for transparent huge pages (Debian's default mode is
    // "madvise"): a queue's walk touches nodes all over the pool, and at
    // 10^6 nodes (64 MB) 4 KB pages would need 16384 TLB entries, 2 MB
    // pages 32.
    Node* NewBlock(size_t sz)
    {
        static_assert(std::is_trivially_destructible<Node>::value,
                      "a block is freed without destroying its nodes");
        const size_t huge = size_t(2) << 20;
        size_t bytes = sz * sizeof(Node);
        size_t align = alignof(Node);
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
        std::unique_ptr<Node, BlockFree> block(static_cast<Node*>(p));
        m_blocks.push_back(std::move(block));
        return m_blocks.back().get();
    }

    // Nodes are trivially destructible: a block is freed as it came.
    struct BlockFree
    {
        void operator()(Node* b) const
        {
            std::free(b);
        }
    };

    // FIFO among equal ts must be uid order (see the top of the file).
    void CheckOrder(const EventKey& k)
    {
        bool fresh = m_seen == 0 || k.m_uid > m_maxUid;
        bool above = m_seen == 0 || k.m_ts > m_maxKey.m_ts ||
                     (k.m_ts == m_maxKey.m_ts && k.m_uid > m_maxKey.m_uid);
        m_seen = 1;
        if (k.m_uid > m_maxUid)
        {
            m_maxUid = k.m_uid;
        }
        if (above)
        {
            m_maxKey = k;
        }
        if (fresh || above)
        {
            return;
        }
        Late late = {k, false};
        K::visit(m_q.get(), &LateVisit, &late);
        if (late.found)
        {
            std::fprintf(stderr, "SmartqScheduler::Insert: uid %u at ts %llu "
                         "is below a queued uid at that ts (uid wrapped "
                         "after 2^32 events?)\n", k.m_uid,
                         (unsigned long long)k.m_ts);
            std::abort();
        }
    }

    struct Late
    {
        EventKey key;
        bool found;
    };

    static void LateVisit(typename K::node* l, void* arg)
    {
        Late* late = static_cast<Late*>(arg);
        Node* n = Of(l);
        if (K::key(l) == late->key.m_ts && n->uid > late->key.m_uid)
        {
            late->found = true;
        }
    }

    std::unique_ptr<typename K::queue> m_q;
    std::vector<std::unique_ptr<Node, BlockFree>> m_blocks;
    Node* m_free = nullptr;
    size_t m_capacity = 0;
    int m_seen = 0;
    uint32_t m_maxUid = 0;
    EventKey m_maxKey = {0, 0, 0};
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
