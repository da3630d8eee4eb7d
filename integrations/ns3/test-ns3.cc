// test-ns3.cc - smartq's ns-3 schedulers against MapScheduler
//
//   test-ns3 storm TYPE        an event storm; prints the hash of the pops
//   test-ns3 order TYPE        the scheduler alone, uids in any order
//   test-ns3 model TYPE FILE   point-to-point + UDP echo, ASCII trace to FILE
//   test-ns3 global            prints the SchedulerType global value
//
// TYPE is a TypeId name (ns3::MapScheduler, ns3::SmartqLadderScheduler).
// integrations/ns3/test-ns3.sh runs each mode per backend and compares.
#include "smartq-scheduler.h"

#include <ns3/applications-module.h>
#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>

#include <cinttypes>
#include <cstdio>
#include <vector>

SMARTQ_NS3_REGISTER();

using namespace ns3;

namespace
{

// ---- the storm: every way 3.37 has to add or take an event -----------------

uint64_t g_rng = 0x9E3779B97F4A7C15ull;
uint64_t g_hash = 1469598103934665603ull; // FNV-1a over the pops
uint32_t g_next_id;
uint32_t g_fired;
uint32_t g_budget = 150000;
std::vector<EventId> g_ids; // a ring of recent ids to Cancel or Remove
std::string g_type;

uint32_t Rand(uint32_t n)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)((g_rng >> 32) % n);
}

void Mix(uint64_t v)
{
    for (int i = 0; i < 8; i++)
    {
        g_hash = (g_hash ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ull;
    }
}

void Fire(uint32_t id);

void Keep(const EventId& e)
{
    if (g_ids.size() < 4096)
    {
        g_ids.push_back(e);
    }
    else
    {
        g_ids[Rand(4096)] = e;
    }
}

void Spawn()
{
    uint32_t id = g_next_id++;
    Time d = NanoSeconds(Rand(4) ? Rand(16) : Rand(100000));
    switch (Rand(8))
    {
    case 0:
        Keep(Simulator::ScheduleNow(&Fire, id));
        break;
    case 1:
        Simulator::ScheduleWithContext(Rand(5), d, &Fire, id);
        break;
    default:
        Keep(Simulator::Schedule(d, &Fire, id));
        break;
    }
}

void Destroyed(uint32_t id)
{
    Mix(0xDE57000000000000ull | id);
}

void Fire(uint32_t id)
{
    Mix(((uint64_t)Simulator::Now().GetTimeStep() << 32) | id);
    Mix(Simulator::GetContext());
    if (++g_fired == g_budget / 3)
    {
        ObjectFactory f("ns3::MapScheduler");
        Simulator::SetScheduler(f); // hand over to ns-3's map ...
    }
    else if (g_fired == 2 * g_budget / 3)
    {
        ObjectFactory f(g_type);
        Simulator::SetScheduler(f); // ... and back
    }
    if (g_next_id >= g_budget)
    {
        return;
    }
    uint32_t r = Rand(16);
    int spawn = r < 5 ? 1 : r < 10 ? 2 : r < 13 ? 0 : 3;
    for (int i = 0; i < spawn; i++)
    {
        Spawn();
    }
    if (!g_ids.empty() && Rand(4) == 0)
    {
        EventId& e = g_ids[Rand((uint32_t)g_ids.size())];
        if (Rand(2))
        {
            Simulator::Cancel(e);
        }
        else if (!e.IsExpired())
        {
            Simulator::Remove(e);
        }
    }
    if (Rand(64) == 0)
    {
        Simulator::ScheduleDestroy(&Destroyed, g_next_id++);
    }
}

int Storm(const std::string& type)
{
    g_type = type;
    ObjectFactory f(type);
    Simulator::SetScheduler(f);
    for (int i = 0; i < 2000; i++)
    {
        Spawn();
    }
    Simulator::Run();
    Simulator::Destroy();
    std::printf("storm %016" PRIx64 " fired %u\n", g_hash, g_fired);
    return 0;
}

// ---- a real model: point-to-point + UDP echo, ASCII trace -------------------

int Model(const std::string& type, const std::string& file)
{
    ObjectFactory f(type);
    Simulator::SetScheduler(f);

    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("2ms"));
    NetDeviceContainer devs = p2p.Install(nodes);
    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper addr;
    addr.SetBase("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devs);

    // Four clients at the same instants: equal-ts events on both nodes.
    for (uint16_t i = 0; i < 4; i++)
    {
        uint16_t port = (uint16_t)(9 + i);
        UdpEchoServerHelper server(port);
        ApplicationContainer s = server.Install(nodes.Get(1));
        s.Start(Seconds(1.0));
        s.Stop(Seconds(10.0));
        UdpEchoClientHelper client(ifs.GetAddress(1), port);
        client.SetAttribute("MaxPackets", UintegerValue(200));
        client.SetAttribute("Interval", TimeValue(MilliSeconds(5 + i)));
        client.SetAttribute("PacketSize", UintegerValue(256 + 256 * i));
        ApplicationContainer c = client.Install(nodes.Get(0));
        c.Start(Seconds(2.0));
        c.Stop(Seconds(10.0));
    }
    AsciiTraceHelper ascii;
    p2p.EnableAsciiAll(ascii.CreateFileStream(file));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}

// ---- the scheduler alone, uids in any order ---------------------------------

// Events of @nts distinct ts whose uids are not in insertion order
// (random, and across the 32-bit wrap), inserted, one removed for each
// inserted beyond @live, all popped: the hash of the pop sequence. A
// scheduler that orders equal ts by uid, as MapScheduler does, gives
// MapScheduler's hash; one that is FIFO does not. Few ts make long groups
// of one ts; many (more than the adapter's cache of groups has slots)
// make several groups of one ts.
int Order(const std::string& type, uint32_t nts, size_t live)
{
    ObjectFactory f(type);
    Ptr<Scheduler> s = f.Create<Scheduler>();
    std::vector<Scheduler::Event> evs;
    uint64_t hash = 1469598103934665603ull;
    for (uint32_t i = 0; i < 20000; i++)
    {
        Scheduler::Event ev;
        ev.impl = nullptr;
        ev.key.m_ts = Rand(nts);
        ev.key.m_uid = i % 3 == 0 ? 0xFFFFFFF0u + Rand(32) : Rand(1u << 30);
        ev.key.m_context = i;
        bool dup = false;
        for (const Scheduler::Event& e : evs)
        {
            dup = dup || (e.key.m_ts == ev.key.m_ts &&
                          e.key.m_uid == ev.key.m_uid);
        }
        if (dup)
        {
            continue; // (ts, uid) names one event
        }
        s->Insert(ev);
        evs.push_back(ev);
        if (evs.size() > live)
        {
            size_t at = Rand((uint32_t)evs.size());
            s->Remove(evs[at]);
            evs.erase(evs.begin() + (long)at);
        }
    }
    while (!s->IsEmpty())
    {
        Scheduler::Event ev = s->RemoveNext();
        hash = (hash ^ ev.key.m_ts) * 1099511628211ull;
        hash = (hash ^ ev.key.m_uid) * 1099511628211ull;
        hash = (hash ^ ev.key.m_context) * 1099511628211ull;
    }
    std::printf("order %016" PRIx64 "\n", hash);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "storm" && argc == 3)
    {
        return Storm(argv[2]);
    }
    if (mode == "order" && argc == 5)
    {
        return Order(argv[2], (uint32_t)std::strtoul(argv[3], nullptr, 10),
                     std::strtoul(argv[4], nullptr, 10));
    }
    if (mode == "model" && argc == 4)
    {
        return Model(argv[2], argv[3]);
    }
    if (mode == "global" && argc == 2)
    {
        StringValue v;
        GlobalValue::GetValueByName("SchedulerType", v);
        std::printf("%s\n", v.Get().c_str());
        return 0;
    }
    std::fprintf(stderr, "usage: test-ns3 storm TYPE | order TYPE NTS LIVE | "
                 "model TYPE FILE | global\n");
    return 2;
}
