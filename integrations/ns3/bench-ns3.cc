// bench-ns3.cc - ns-3's schedulers and smartq's, measured on ns-3's terms
//
//   bench-ns3 [POP...]
//
// For each population (default 1000 100000 1000000) and scheduler:
//   sim   the whole simulator: POP events pending, each one, when it runs,
//         schedules the next at an exponential delay (mean 100 ns, as
//         ns-3's utils/bench-scheduler.cc has it; MEAN=ns sets another:
//         at 100 ns hundreds of events share each ts, at 10^6 ns few do);
//         events/s over 5*10^5
//   hold  the scheduler alone behind ns3::Scheduler: POP events, then
//         RemoveNext + Insert at an exponential delay; ns per hold (5*10^5)
// SHOW_GROUPS=1 adds two columns to smartq's rows: the groups the adapter
// queues after the holds, and the distinct ts pending then.
// Each row runs in a child process given LIMIT seconds (default 45) of
// wall clock; a row that takes longer is printed as "over LIMIT s".
// ListScheduler (O(n) insert; its setup alone is O(POP^2)) runs at 10^3
// only: at 10^5 it took over four minutes. SCHEDULERS="Map SmartqRb ..."
// runs only the schedulers named (without "ns3::" and "Scheduler").
#include "smartq-scheduler.h"

#include <ns3/core-module.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

SMARTQ_NS3_REGISTER();

using namespace ns3;

namespace
{

uint64_t g_rng;
double g_mean = 100.0; // the delays' mean, ns

double Uniform()
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return ((double)(g_rng >> 11) + 0.5) / 9007199254740992.0;
}

uint64_t Delay()
{
    return (uint64_t)(-g_mean * std::log(Uniform()));
}

uint64_t g_left;

void Next()
{
    if (g_left == 0)
    {
        Simulator::Stop();
        return;
    }
    g_left--;
    Simulator::Schedule(NanoSeconds(Delay()), &Next);
}

double Now()
{
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

double Sim(const std::string& type, uint64_t pop, uint64_t events)
{
    g_rng = 0x2545F4914F6CDD1Dull;
    ObjectFactory f(type);
    Simulator::SetScheduler(f);
    for (uint64_t i = 0; i < pop; i++)
    {
        Simulator::Schedule(NanoSeconds(Delay()), &Next);
    }
    g_left = events;
    double t0 = Now();
    Simulator::Run();
    double t = Now() - t0;
    Simulator::Destroy();
    return (double)events / t;
}

// The groups @s queues, if it is one of smartq's schedulers, else 0.
template <class K>
size_t GroupsOf(const Ptr<Scheduler>& s)
{
    Ptr<SmartqScheduler<K>> p = DynamicCast<SmartqScheduler<K>>(s);
    return p ? p->Groups() : 0;
}

size_t g_groups;   // after Hold's holds: the groups smartq's adapter queues
size_t g_distinct; // and the distinct ts pending

double Hold(const std::string& type, uint64_t pop, uint64_t holds)
{
    g_rng = 0x2545F4914F6CDD1Dull;
    ObjectFactory f(type);
    Ptr<Scheduler> s = f.Create<Scheduler>();
    uint32_t uid = 4;
    for (uint64_t i = 0; i < pop; i++)
    {
        Scheduler::Event ev;
        ev.impl = nullptr;
        ev.key.m_ts = Delay();
        ev.key.m_uid = uid++;
        ev.key.m_context = 0;
        s->Insert(ev);
    }
    double t0 = Now();
    for (uint64_t i = 0; i < holds; i++)
    {
        Scheduler::Event ev = s->RemoveNext();
        ev.key.m_ts += Delay();
        ev.key.m_uid = uid++;
        s->Insert(ev);
    }
    double t = Now() - t0;
    g_groups = GroupsOf<smartq::rb>(s) + GroupsOf<smartq::gavl>(s) +
               GroupsOf<smartq::binom>(s) + GroupsOf<smartq::ladder>(s);
    g_distinct = 0;
    uint64_t last = 0;
    while (!s->IsEmpty())
    {
        uint64_t ts = s->RemoveNext().key.m_ts;
        g_distinct += g_distinct == 0 || ts != last;
        last = ts;
    }
    return t * 1e9 / (double)holds;
}

// Is @name one of the space-separated words of @list?
bool Named(const std::string& list, const std::string& name)
{
    return (" " + list + " ").find(" " + name + " ") != std::string::npos;
}

} // namespace

int main(int argc, char** argv)
{
    const char* env = std::getenv("LIMIT");
    unsigned limit = env ? (unsigned)std::atoi(env) : 45;
    env = std::getenv("MEAN");
    g_mean = env ? std::atof(env) : 100.0;
    std::vector<uint64_t> pops;
    for (int i = 1; i < argc; i++)
    {
        pops.push_back(std::strtoull(argv[i], nullptr, 10));
    }
    if (pops.empty())
    {
        pops = {1000, 100000, 1000000};
    }
    const char* types[] = {"Map", "Heap", "List", "Calendar", "PriorityQueue",
                           "SmartqRb", "SmartqGavl", "SmartqBinom",
                           "SmartqLadder"};
    const char* only = std::getenv("SCHEDULERS");
    const uint64_t n = 500000;
    std::printf("# delays: exponential, mean %g ns\n", g_mean);
    std::printf("%-22s %8s %12s %10s\n", "scheduler", "pop", "events/s",
                "ns/hold");
    for (uint64_t pop : pops)
    {
        for (const char* t : types)
        {
            std::string type = std::string("ns3::") + t + "Scheduler";
            if (only && !Named(only, t))
            {
                continue;
            }
            if (std::string(t) == "List" && pop > 10000)
            {
                std::printf("%-22s %8llu %12s %10s\n", type.c_str() + 5,
                            (unsigned long long)pop, "skipped", "skipped");
                std::fflush(stdout);
                continue;
            }
            std::fflush(stdout);
            pid_t child = fork();
            if (child == 0)
            {
                alarm(limit);
                double eps = Sim(type, pop, n);
                double ns = Hold(type, pop, n);
                std::printf("%-22s %8llu %12.0f %10.1f", type.c_str() + 5,
                            (unsigned long long)pop, eps, ns);
                if (std::getenv("SHOW_GROUPS") && g_groups)
                {
                    std::printf(" %8zu %8zu", g_groups, g_distinct);
                }
                std::printf("\n");
                std::fflush(stdout);
                _exit(0);
            }
            int status = 0;
            waitpid(child, &status, 0);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            {
                std::printf("%-22s %8llu %9s %us\n", type.c_str() + 5,
                            (unsigned long long)pop, "over", limit);
            }
        }
    }
    return 0;
}
