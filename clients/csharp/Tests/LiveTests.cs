using System.Collections.Generic;
using System.Linq;
using System.Net.Http;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;

namespace Hearth.Tests.Live
{
    public sealed class TestWorld
    {
        public string Id;
        public HearthClient Client;
    }

    /// <summary>The client against a live Hearth: scope, typed errors, idempotency, pages, events.</summary>
    [TestFixture]
    public class LiveTests
    {
        public const string Start = "2023-02-13T07:00:00";
        private HearthClient admin;

        [TestFixtureSetUp]
        public void Open()
        {
            admin = LiveStack.Admin();
        }

        [TestFixtureTearDown]
        public void Close()
        {
            admin.Dispose();
        }

        public static async Task<TestWorld> NewWorldAsync(HearthClient admin, string name)
        {
            var created = await admin.CreateWorldAsync(new WorldCreate { Name = name, Clock = new ClockSpec { Mode = "driven", Start = Start } });
            return new TestWorld { Id = created.Id, Client = new HearthClient(LiveStack.Url, created.ApiKey, LiveStack.FastRetry()) };
        }

        [Test]
        public async Task TheCallersScopeWorldsInPagesAndAWorldKeyKeptToItsWorld()
        {
            var w = await NewWorldAsync(admin, "Oakvale");
            Assert.AreEqual("admin", (await admin.MeAsync()).Scope);
            var me = await w.Client.MeAsync();
            Assert.AreEqual("world", me.Scope);
            Assert.AreEqual(w.Id, me.WorldId);
            Assert.AreEqual("Oakvale", (await w.Client.GetWorldAsync(w.Id)).Name);
            var worlds = admin.ListWorlds(pageSize: 1);
            var names = await worlds.ToListAsync();
            Assert.That(names.Select(x => x.Name).ToList(), Has.Member("Oakvale"));
            Assert.AreEqual(names.Count, worlds.Pages, "one world a page");
            await Expect.Throws<ForbiddenException>(() => w.Client.ListWorlds().ToListAsync());
            var other = await NewWorldAsync(admin, "Elsewhere");
            var missing = await Expect.Throws<NotFoundException>(() => w.Client.GetWorldAsync(other.Id));
            Assert.AreEqual(404, missing.Status);
            Assert.AreEqual("not_found", missing.Code);
            Assert.IsNotNullOrEmpty(missing.RequestId);
        }

        [Test]
        public async Task EachErrorCodeIsTypedWithItsFieldsAndRequestId()
        {
            var w = await NewWorldAsync(admin, "Errorville");
            var ada = await w.Client.CreateAgentAsync(w.Id, new AgentCreate { Name = "Ada" });

            var taken = await Expect.Throws<ConflictException>(() => w.Client.CreateAgentAsync(w.Id, new AgentCreate { Name = "Ada" }));
            Assert.AreEqual("conflict", taken.Code);
            CollectionAssert.Contains(taken.Fields, "body.name");

            var invalid = await Expect.Throws<ValidationException>(() => w.Client.CreateAgentAsync(w.Id, new AgentCreate { Name = "Bo", Age = -1 }));
            Assert.AreEqual(422, invalid.Status);
            Assert.AreEqual("validation_error", invalid.Code);
            CollectionAssert.Contains(invalid.Fields, "body.age");

            var cursor = new Call("GET", "/v1/worlds/" + w.Id + "/agents").With("cursor", "not-a-cursor");
            var badCursor = await Expect.Throws<ValidationException>(() => w.Client.SendAsync<Page<Agent>>(cursor));
            CollectionAssert.Contains(badCursor.Fields, "query.cursor");

            using (var stranger = new HearthClient(LiveStack.Url, "hk_world_nope"))
            {
                var denied = await Expect.Throws<UnauthorizedException>(() => stranger.MeAsync());
                Assert.AreEqual("unauthorized", denied.Code);
            }
            var forbidden = await Expect.Throws<ForbiddenException>(() => w.Client.CreateWorldAsync(new WorldCreate { Name = "Mine" }));
            Assert.AreEqual("forbidden", forbidden.Code);

            var lost = await Expect.Throws<NotFoundException>(() => w.Client.GetAgentAsync(w.Id, "00000000-0000-0000-0000-000000000000"));
            Assert.AreEqual("not_found", lost.Code);

            var big = new string('x', 9 * 1024 * 1024);
            var tooLarge = await Expect.Throws<PayloadTooLargeException>(() => w.Client.InnerVoiceAsync(w.Id, ada.Id, big));
            Assert.AreEqual("payload_too_large", tooLarge.Code);

            var reused = await Expect.Throws<ConflictException>(async () =>
            {
                await w.Client.CreateAgentAsync(w.Id, new AgentCreate { Name = "Cy" }, "key-1");
                await w.Client.CreateAgentAsync(w.Id, new AgentCreate { Name = "Di" }, "key-1");
            });
            Assert.AreEqual("idempotency_conflict", reused.Code);

            var method = await Expect.Throws<HearthException>(() => w.Client.SendAsync<object>(new Call("PUT", "/v1/me")));
            Assert.AreEqual(405, method.Status);
            Assert.AreEqual("method_not_allowed", method.Code);
        }

        [Test]
        public async Task ACreateCarriesAnIdempotencyKeyTheSameKeyAnswersTheFirstAnswer()
        {
            var w = await NewWorldAsync(admin, "Idemville");
            var first = await w.Client.CreateAgentAsync(w.Id, new AgentCreate { Name = "Cy" }, "agent-cy");
            var again = await w.Client.CreateAgentAsync(w.Id, new AgentCreate { Name = "Cy" }, "agent-cy");
            Assert.AreEqual(first.Id, again.Id);
            var memory = new List<MemoryCreate> { new MemoryCreate { Description = "Cy bakes bread" } };
            var stored = await w.Client.AddMemoriesAsync(w.Id, first.Id, memory, "m1");
            var replayed = await w.Client.AddMemoriesAsync(w.Id, first.Id, memory, "m1");
            Assert.AreEqual(stored[0].Id, replayed[0].Id);
            var observations = new MemoryFilter { Kinds = new[] { MemoryKind.Observation } }; // beat may plan Cy's day meanwhile
            Assert.AreEqual(1, (await w.Client.ListMemories(w.Id, first.Id, observations).ToListAsync()).Count);
            var worldA = await admin.CreateWorldAsync(new WorldCreate { Name = "Once" }, "world-once");
            var worldB = await admin.CreateWorldAsync(new WorldCreate { Name = "Once" }, "world-once");
            Assert.AreEqual(worldA.Id, worldB.Id);
        }

        [Test]
        public async Task CursorIterationWalksEveryPageWithFilters()
        {
            var w = await NewWorldAsync(admin, "Pageville");
            foreach (var name in new[] { "A", "B", "C", "D", "E" })
                await w.Client.CreateAgentAsync(w.Id, new AgentCreate { Name = name });
            var agents = w.Client.ListAgents(w.Id, pageSize: 2);
            var names = (await agents.ToListAsync()).Select(a => a.Name).ToList();
            CollectionAssert.AreEqual(new[] { "A", "B", "C", "D", "E" }, names);
            Assert.AreEqual(3, agents.Pages);

            var first = w.Client.ListAgents(w.Id);
            Assert.IsTrue(await first.MoveNextAsync());
            string agentId = first.Current.Id;
            var memories = Enumerable.Range(1, 5).Select(i => new MemoryCreate
            {
                Description = (i % 2 == 1 ? "odd " : "even ") + i,
                CreatedAt = "2023-02-13T07:0" + i + ":00",
            }).ToList();
            await w.Client.AddMemoriesAsync(w.Id, agentId, memories);
            var odd = w.Client.ListMemories(w.Id, agentId, new MemoryFilter { Text = "ODD" }, pageSize: 1);
            CollectionAssert.AreEqual(new[] { "odd 5", "odd 3", "odd 1" }, (await odd.ToListAsync()).Select(m => m.Description).ToList());
            var early = w.Client.ListMemories(w.Id, agentId, new MemoryFilter { Kinds = new[] { MemoryKind.Observation }, Until = "2023-02-13T07:03:00" });
            CollectionAssert.AreEqual(new[] { "even 2", "odd 1" }, (await early.ToListAsync()).Select(m => m.Description).ToList());
            var none = w.Client.ListMemories(w.Id, agentId, new MemoryFilter { Kinds = new[] { MemoryKind.Reflection } });
            Assert.IsFalse(await none.MoveNextAsync());
        }

        [Test]
        public async Task EventsArriveInOrderAndResumeAfterTheLastIdSeen()
        {
            var w = await NewWorldAsync(admin, "Eventville");
            foreach (var name in new[] { "Ann", "Ben" }) await w.Client.CreateAgentAsync(w.Id, new AgentCreate { Name = name });
            // beat may plan their day meanwhile (plan_created events): the test follows agent_created
            var everything = await ReadAll(w.Client.Events(w.Id, once: true));
            var all = everything.Where(e => e.Type == "agent_created").ToList();
            CollectionAssert.AreEqual(new[] { "Ann", "Ben" }, all.Select(e => e.As<AgentCreatedEvent>().Name).ToList());
            CollectionAssert.AreEqual(everything.Select(e => e.Id).OrderBy(id => id).ToList(), everything.Select(e => e.Id).ToList(), "in order");
            var resumed = await ReadAll(w.Client.Events(w.Id, after: all[0].Id, once: true));
            var after = everything.Where(e => e.Id > all[0].Id).Select(e => e.Id).ToList();
            CollectionAssert.AreEqual(after, resumed.Select(e => e.Id).Take(after.Count).ToList(), "resumed right after Ann's");
            Assert.IsTrue(resumed.All(e => e.Id > all[0].Id), "nothing repeated");

            using (var stop = new CancellationTokenSource())
            using (var live = w.Client.Events(w.Id, after: all[1].Id, token: stop.Token))
            {
                Task<HearthEvent> next = live.NextAsync();
                await w.Client.CreateAgentAsync(w.Id, new AgentCreate { Name = "Cal" });
                HearthEvent cal = await next;
                while (cal.Type != "agent_created") cal = await live.NextAsync();
                Assert.AreEqual("Cal", cal.As<AgentCreatedEvent>().Name);
                Assert.AreEqual(cal.Id, live.LastEventId);
                Task<HearthEvent> more = live.NextAsync();
                stop.Cancel();
                Assert.IsNull(await more, "a cancelled stream ends");
            }
        }

        [Test]
        public async Task TheAdminSetsAModelBudgetAndResetsItWithAnExplicitNull()
        {
            var w = await NewWorldAsync(admin, "Budgetville");
            var budget = JObject.Parse("{\"settings\": {\"budget\": {\"per_game_day\": {\"calls\": 40}}}}");
            var changed = await admin.UpdateWorldAsync(w.Id, budget);
            Assert.AreEqual(40, changed.Settings.Budget.PerGameDay.Calls);
            var day = (await w.Client.UsageAsync(w.Id)).Budget.GameDay;
            Assert.AreEqual(40, day.RemainingCalls);
            Assert.AreEqual("2023-02-14T00:00:00", day.ResetsAt);
            await Expect.Throws<ForbiddenException>(() => w.Client.UpdateWorldAsync(w.Id, new WorldUpdate { Name = "Mine" }));
            var reset = await admin.UpdateWorldAsync(w.Id, JObject.Parse("{\"settings\": {\"budget\": null}}"));
            Assert.IsNull(reset.Settings.Budget);
            var renamed = await admin.UpdateWorldAsync(w.Id, new WorldUpdate { Name = "Thriftville" });
            Assert.AreEqual("Thriftville", renamed.Name);
        }

        [Test]
        public async Task KeysExportImportMetricsAndHealth()
        {
            var w = await NewWorldAsync(admin, "Keyville");
            await w.Client.CreateAgentAsync(w.Id, new AgentCreate { Name = "Kit" });
            Assert.AreEqual("ok", (await admin.HealthAsync()).Status);
            Assert.AreEqual("ready", (await admin.ReadinessAsync()).Status);
            var key = await admin.CreateKeyAsync(w.Id);
            Assert.That((await admin.ListKeysAsync(w.Id)).Select(k => k.Id).ToList(), Has.Member(key.Id));
            await admin.RevokeKeyAsync(w.Id, key.Id);
            using (var revoked = new HearthClient(LiveStack.Url, key.ApiKey))
                await Expect.Throws<UnauthorizedException>(() => revoked.MeAsync());
            string export = await admin.ExportWorldAsync(w.Id);
            StringAssert.Contains("\"format\"", export.Split('\n')[0]);
            var copy = await admin.ImportWorldAsync(export, "Keyville copy");
            Assert.AreEqual("Keyville copy", copy.Name);
            using (var copied = new HearthClient(LiveStack.Url, copy.ApiKey))
                CollectionAssert.AreEqual(new[] { "Kit" }, (await copied.ListAgents(copy.Id).ToListAsync()).Select(a => a.Name).ToList());
            StringAssert.Contains("# TYPE", await admin.MetricsAsync());
            await admin.DeleteWorldAsync(copy.Id);
            await Expect.Throws<NotFoundException>(() => admin.GetWorldAsync(copy.Id));
        }

        [Test]
        public async Task AgentsTheMapWhatEachKnowsAndObjectStates()
        {
            var w = await NewWorldAsync(admin, "Mapville");
            var map = new MapSpec
            {
                Name = "Mapville",
                Children = new List<PlaceNode>
                {
                    new PlaceNode { Name = "cafe", Children = new List<PlaceNode> { new PlaceNode { Name = "stove", State = "idle" } } },
                    new PlaceNode { Name = "park" },
                },
            };
            Assert.AreEqual(3, (await w.Client.PutMapAsync(w.Id, map)).Places);
            var rosa = await w.Client.CreateAgentAsync(w.Id, new AgentCreate { Name = "Rosa", StartPlace = "cafe: stove" });
            Assert.AreEqual("cafe: stove", rosa.Place);
            var changed = await w.Client.UpdateAgentAsync(w.Id, rosa.Id, new AgentUpdate { Currently = "Rosa is baking bread" });
            Assert.AreEqual("Rosa is baking bread", changed.Currently);
            Assert.AreEqual(rosa.Name, changed.Name, "what the update leaves out is kept");
            var known = await w.Client.AgentPlacesAsync(w.Id, rosa.Id);
            Assert.AreEqual(rosa.Id, known.AgentId);
            Assert.That(known.Children.Select(p => p.Name).ToList(), Has.Member("cafe"));
            var burning = await w.Client.SetObjectStateAsync(w.Id, new ObjectStateChange { Place = "cafe: stove", State = "burning" });
            Assert.AreEqual("idle", burning.PreviousState);
            Assert.IsTrue(burning.Changed);
            var statement = await w.Client.SetObjectStateAsync(w.Id, new ObjectStateChange { Statement = "<cafe: stove> is idle" });
            Assert.AreEqual("idle", statement.State);
            var unknown = await Expect.Throws<ValidationException>(() => w.Client.SetObjectStateAsync(w.Id, new ObjectStateChange { Place = "moon: crater", State = "dusty" }));
            Assert.IsNotEmpty(unknown.Fields);
            await w.Client.DeleteAgentAsync(w.Id, rosa.Id);
            await Expect.Throws<NotFoundException>(() => w.Client.GetAgentAsync(w.Id, rosa.Id));
        }

        private static async Task<List<HearthEvent>> ReadAll(EventStream stream)
        {
            var events = new List<HearthEvent>();
            using (stream)
                for (var e = await stream.NextAsync(); e != null; e = await stream.NextAsync()) events.Add(e);
            return events;
        }
    }
}
