using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;

namespace Hearth.Tests.Live
{
    /// <summary>The sample's game loop (TownLoop) drives a small town through a game hour against
    /// the whole stack — workers plan the day while the game steps — then a player talks to one
    /// of them, an interviewer asks another, and the town's memories, plans and events are read.</summary>
    [TestFixture]
    public class GameLoopTests
    {
        private const int TownSize = 3;
        private const int StepMinutes = 15;
        private const int GameHourTicks = 60 / StepMinutes;
        private static readonly TimeSpan Settle = TimeSpan.FromSeconds(60);

        [Test]
        public async Task TheSampleLoopDrivesASmallTownThroughAGameHour()
        {
            using (var admin = LiveStack.Admin())
            {
                var w = await LiveTests.NewWorldAsync(admin, "Larkspur");
                var client = w.Client;
                var pack = SmallTown(TownSize);
                var summary = await client.PutMapAsync(w.Id, pack.Map);
                Assert.Greater(summary.Places, 50);
                var imported = await client.ImportPersonasAsync(w.Id, new PersonaPack { Personas = pack.Personas });
                Assert.AreEqual(TownSize, imported.Created.Count);

                var loop = new TownLoop(client, w.Id, StepMinutes);
                await loop.LoadAsync();
                Assert.AreEqual(TownSize, loop.Npcs.Count);
                Assert.IsTrue(await loop.SettleAsync(Settle), "the workers planned everyone's morning");
                var places = new HashSet<string>();
                for (int tick = 0; tick < GameHourTicks; tick++)
                {
                    var answer = await loop.TickAsync();
                    Assert.AreEqual(TownSize, answer.Agents.Count);
                    Assert.IsTrue(await loop.SettleAsync(Settle), "everyone has an action at " + loop.Now);
                    foreach (var npc in loop.Npcs.Values)
                    {
                        Assert.IsNotNullOrEmpty(npc.Doing, npc.Name + " at " + loop.Now);
                        places.Add(npc.Place);
                    }
                }
                Assert.AreEqual("2023-02-13T08:00:00", loop.Now);
                Assert.AreEqual(GameHourTicks, loop.Ticks);
                Assert.Greater(places.Count, 1, "the town moved about");

                var junie = loop.Npcs.Values.First(n => n.Name == "Junie Halvorsen");
                var plans = await client.PlansAsync(w.Id, junie.Id);
                Assert.AreEqual("2023-02-13", plans.Day);
                Assert.IsNotEmpty(plans.Items, "Junie's day is planned");
                var action = await client.ActionAsync(w.Id, junie.Id);
                Assert.AreEqual(loop.Now, action.Now);
                Assert.IsNotNull(action.Action, "Junie is doing something (her reactions may have changed what since the tick)");

                var chat = await client.ChatAsync(w.Id, junie.Id, new ChatRequest { Player = "Sam", Message = "Hello Junie! Anything happening this week?" });
                Assert.IsNotNullOrEmpty(chat.Reply);
                var more = await client.ChatAsync(w.Id, junie.Id, new ChatRequest { Player = "Sam", Message = "Thanks, see you!", ConversationId = chat.ConversationId });
                Assert.AreEqual(chat.ConversationId, more.ConversationId);
                var talks = await client.ListConversations(w.Id, junie.Id).ToListAsync();
                Assert.That(talks.Select(c => c.Id).ToList(), Has.Member(chat.ConversationId));

                var answer2 = await client.InterviewAsync(w.Id, junie.Id, new InterviewRequest { Question = "What are you planning this week?" });
                Assert.IsNotNullOrEmpty(answer2.Answer);

                var found = await client.SearchMemoriesAsync(w.Id, junie.Id, new SearchRequest { Query = "the party", K = 5, Touch = false });
                Assert.IsNotEmpty(found.Results);
                var best = found.Results[0];
                Assert.That(best.Components.Relevance.Normalized, Is.InRange(0.0, 1.0));
                var detail = await client.GetMemoryAsync(w.Id, junie.Id, best.Id);
                Assert.AreEqual(best.Description, detail.Description);
                await client.InnerVoiceAsync(w.Id, junie.Id, "You want to bake heart-shaped cookies for the party");
                var voiced = await client.ListMemories(w.Id, junie.Id, new MemoryFilter { Kinds = new[] { MemoryKind.Directive } }).ToListAsync();
                Assert.AreEqual(1, voiced.Count);

                var known = await client.AgentPlacesAsync(w.Id, junie.Id);
                Assert.IsNotNull(known);
                var map = await client.GetMapAsync(w.Id);
                Assert.AreEqual(summary.Places, CountPlaces(map));
                Assert.IsNotNull(await client.ListRelationships(w.Id, junie.Id).ToListAsync());
                var usage = await client.UsageAsync(w.Id);
                Assert.Greater(usage.Total.Calls, 0, "the minds' calls are counted (the offline mind's too)");
                Assert.IsNotEmpty(usage.ByOperation);
                Assert.IsNotNull((await client.UsageTimelineAsync(w.Id, 60)).Buckets);

                var kinds = new HashSet<string>();
                using (var events = client.Events(w.Id, once: true))
                    for (var e = await events.NextAsync(); e != null; e = await events.NextAsync()) kinds.Add(e.Type);
                Assert.That(kinds, Has.Member("plan_created"));
                Assert.That(kinds, Has.Member("action_changed"));
                Assert.That(kinds, Has.Member("utterance"));
            }
        }

        /// <summary>The demo town's map and its first personas, with only the relationships among them.</summary>
        public static PersonaPack SmallTown(int size)
        {
            string path = Path.Combine(LiveStack.Repo, "clients", "python", "hearth_client", "demo", "town.json");
            JObject town = JObject.Parse(File.ReadAllText(path));
            var chosen = ((JArray)town["personas"]).Take(size).Cast<JObject>().ToList();
            var names = new HashSet<string>(chosen.Select(p => (string)p["name"]));
            foreach (var persona in chosen)
            {
                var ties = persona["relationships"] as JArray;
                if (ties != null) persona["relationships"] = new JArray(ties.Where(r => names.Contains((string)r["other"])));
            }
            town["personas"] = new JArray(chosen);
            return town.ToObject<PersonaPack>(Newtonsoft.Json.JsonSerializer.Create(Json.Settings));
        }

        private static int CountPlaces(Map map)
        {
            return map.Children == null ? 0 : map.Children.Sum(Count);
        }

        private static int Count(Place place)
        {
            return 1 + (place.Children == null ? 0 : place.Children.Sum(Count));
        }
    }
}
