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
// Order. ns-3 pops by (ts, uid). smartq orders by key and is FIFO among
// equal keys, so the key is ts alone and the FIFO order must equal the
// uid order. In 3.37 every uid comes from m_uid++ right before Insert,
// and SetScheduler re-inserts in (ts, uid) order, so it does; Insert
// checks it in O(1) (a new uid above every uid seen, or a (ts, uid) above
// every one seen) and otherwise by a walk of the queue, and aborts if an
// equal-ts event with a larger uid is queued. The uid is 32 bits: after
// 2^32 events it wraps, ns-3's own order breaks, and this check aborts.
//
// Remove. ns-3's Remove names the event by (ts, uid). Until smartq's
// SQ_FIND lands, a side index finds the node: an intrusive hash on uid,
// built on the first Remove only, so a model that never calls
// Simulator::Remove pays nothing for it (Cancel does not call Remove).
//
// Memory: nodes come from a pool grown in blocks; no allocation per event
// once the pool has reached the peak population.
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
#include <string>
#include <vector>

namespace smartq
{

// One tag type per exact backend; kind<K> binds the macro API to it.
#define SMARTQ_NS3_KIND(K, NAME)                                          \
    struct K                                                              \
    {                                                                     \
        using queue = struct sq_##K;                                      \
        using node = struct sq_##K##_node;                                \
        static const char* type_name()                                    \
        {                                                                 \
            return "ns3::Smartq" NAME "Scheduler";                        \
        }                                                                 \
        static void init(queue* q) { SQ_INIT(K, q); }                     \
        static void node_init(node* n) { SQ_NODE_INIT(K, n); }            \
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
        Node* n = Alloc();
        n->impl = ev.impl;
        n->uid = ev.key.m_uid;
        n->context = ev.key.m_context;
        CheckOrder(ev.key);
        K::enqueue(m_q.get(), &n->link, ev.key.m_ts);
        if (m_index)
        {
            IndexAdd(n);
        }
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
        if (!m_index)
        {
            IndexBuild();
        }
        Node* n = m_buckets[Hash(ev.key.m_uid)];
        while (n && n->uid != ev.key.m_uid)
        {
            n = n->hnext;
        }
        if (!n || n->link.key != ev.key.m_ts)
        {
            std::fprintf(stderr, "SmartqScheduler::Remove: event uid %u is "
                         "not queued\n", ev.key.m_uid);
            std::abort();
        }
        K::dequeue(m_q.get(), &n->link);
        Free(n);
    }

  private:
    struct Node
    {
        typename K::node link; // the key is the event's ts
        EventImpl* impl;
        uint32_t uid;
        uint32_t context;
        Node* hnext;   // side index chain (only once Remove was called)
        Node** hpprev; // the pointer that points at this node
    };

    static Node* Of(typename K::node* l)
    {
        return l ? sq_entry(l, Node, link) : nullptr;
    }

    static Event ToEvent(const Node* n)
    {
        Event ev;
        ev.impl = n->impl;
        ev.key.m_ts = n->link.key;
        ev.key.m_uid = n->uid;
        ev.key.m_context = n->context;
        return ev;
    }

    // The pool: blocks that double, a free list threaded through hnext.
    Node* Alloc()
    {
        if (!m_free)
        {
            size_t sz = m_blocks.empty() ? 256 : m_capacity;
            m_blocks.emplace_back(new Node[sz]);
            Node* b = m_blocks.back().get();
            for (size_t i = 0; i < sz; i++)
            {
                K::node_init(&b[i].link);
                b[i].hnext = (i + 1 < sz) ? &b[i + 1] : nullptr;
            }
            m_free = b;
            m_capacity += sz;
        }
        Node* n = m_free;
        m_free = n->hnext;
        m_count++;
        return n;
    }

    void Free(Node* n)
    {
        if (m_index)
        {
            *n->hpprev = n->hnext;
            if (n->hnext)
            {
                n->hnext->hpprev = n->hpprev;
            }
        }
        n->hnext = m_free;
        m_free = n;
        m_count--;
    }

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
        if (l->key == late->key.m_ts && n->uid > late->key.m_uid)
        {
            late->found = true;
        }
    }

    // Side index: uid -> node, intrusive chains, buckets >= nodes.
    size_t Hash(uint32_t uid) const
    {
        return (uid * 0x9E3779B1u) & (m_buckets.size() - 1);
    }

    void IndexAdd(Node* n)
    {
        if (m_count > m_buckets.size())
        {
            IndexBuild(); // n is already queued: the rebuild takes it
            return;
        }
        Node** head = &m_buckets[Hash(n->uid)];
        n->hnext = *head;
        n->hpprev = head;
        if (*head)
        {
            (*head)->hpprev = &n->hnext;
        }
        *head = n;
    }

    static void IndexVisit(typename K::node* l, void* arg)
    {
        SmartqScheduler* s = static_cast<SmartqScheduler*>(arg);
        Node* n = Of(l);
        Node** head = &s->m_buckets[s->Hash(n->uid)];
        n->hnext = *head;
        n->hpprev = head;
        if (*head)
        {
            (*head)->hpprev = &n->hnext;
        }
        *head = n;
    }

    void IndexBuild()
    {
        size_t sz = 1024;
        while (sz < 2 * m_count)
        {
            sz *= 2;
        }
        m_buckets.assign(sz, nullptr);
        K::visit(m_q.get(), &IndexVisit, this);
        m_index = true;
    }

    std::unique_ptr<typename K::queue> m_q;
    std::vector<std::unique_ptr<Node[]>> m_blocks;
    Node* m_free = nullptr;
    size_t m_capacity = 0;
    size_t m_count = 0;
    std::vector<Node*> m_buckets;
    bool m_index = false;
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
