using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace Hearth
{
    /// <summary>A character as the game sees it: where it is and what it is doing.</summary>
    public sealed class Npc
    {
        public string Id { get; set; }
        public string Name { get; set; }
        /// <summary>A place path of the world's map, e.g. "The Copper Kettle: counter".</summary>
        public string Place { get; set; }
        public string Doing { get; set; }
        public string Emoji { get; set; }
        /// <summary>The line it is saying now, or null.</summary>
        public string Saying { get; set; }
    }

    /// <summary>
    /// The game loop, engine-agnostic (the Unity and Godot samples and the tests drive it): each
    /// tick advances the world's driven clock, reports where every NPC is and whom it sees, and
    /// moves each NPC to where its action takes place. Workers plan in the background; an NPC
    /// has no action until its day is planned.
    /// </summary>
    public sealed class TownLoop
    {
        private static readonly TimeSpan SettlePoll = TimeSpan.FromMilliseconds(300);
        private readonly HearthClient client;

        public TownLoop(HearthClient client, string worldId, double minutesPerTick = 15)
        {
            this.client = client;
            WorldId = worldId;
            MinutesPerTick = minutesPerTick;
            Npcs = new Dictionary<string, Npc>();
        }

        public string WorldId { get; private set; }
        public double MinutesPerTick { get; private set; }
        /// <summary>Agent id → the NPC; the game may move them between ticks.</summary>
        public Dictionary<string, Npc> Npcs { get; private set; }
        /// <summary>The game time of the last tick.</summary>
        public string Now { get; private set; }
        public int Ticks { get; private set; }

        /// <summary>Every agent of the world as an NPC at its last known place.</summary>
        public async Task LoadAsync(CancellationToken token = default(CancellationToken))
        {
            var agents = client.ListAgents(WorldId, token: token);
            while (await agents.MoveNextAsync().ConfigureAwait(false))
            {
                var a = agents.Current;
                Npcs[a.Id] = new Npc { Id = a.Id, Name = a.Name, Place = a.Place };
            }
        }

        /// <summary>One tick: the clock moves on, the NPCs report, each takes up its action.</summary>
        public async Task<StepResponse> TickAsync(CancellationToken token = default(CancellationToken))
        {
            await client.ClockAsync(WorldId, new ClockUpdate { AdvanceMinutes = MinutesPerTick }, token).ConfigureAwait(false);
            StepResponse answer = await client.StepAsync(WorldId, Report(Npcs.Values), false, token).ConfigureAwait(false);
            foreach (AgentNow now in answer.Agents) Apply(now.AgentId, now.Action, now.Utterance);
            Now = answer.Now;
            Ticks += 1;
            return answer;
        }

        /// <summary>Waits until every NPC has an action for now (the workers planned it), reading
        /// the town view; false if <paramref name="timeout"/> passes first.</summary>
        public async Task<bool> SettleAsync(TimeSpan timeout, CancellationToken token = default(CancellationToken))
        {
            DateTime deadline = DateTime.UtcNow + timeout;
            for (;;)
            {
                var town = await client.ListActions(WorldId, token: token).ToListAsync().ConfigureAwait(false);
                foreach (AgentDoing doing in town) Apply(doing.AgentId, doing.Action, doing.Utterance);
                if (town.All(d => d.Action != null)) return true;
                if (DateTime.UtcNow > deadline) return false;
                await Task.Delay(SettlePoll, token).ConfigureAwait(false);
            }
        }

        /// <summary>What each NPC reports: its place, and the others in its area (the first segment
        /// of the place path) with what they are doing — the rule a game computes from positions.</summary>
        public static List<AgentStep> Report(IEnumerable<Npc> npcs)
        {
            var all = npcs.ToList();
            return all.Select(me => new AgentStep
            {
                AgentId = me.Id,
                Place = me.Place,
                Perceived = all
                    .Where(other => other.Id != me.Id && other.Doing != null && Area(other.Place) == Area(me.Place))
                    .Select(other => new Perceived { Kind = "agent", Subject = other.Name, State = other.Doing })
                    .ToList(),
            }).ToList();
        }

        public static string Area(string place)
        {
            return string.IsNullOrEmpty(place) ? "" : place.Split(':')[0].Trim();
        }

        private void Apply(string agentId, ActionRead action, Speech utterance)
        {
            Npc npc;
            if (!Npcs.TryGetValue(agentId, out npc)) return;
            if (action != null)
            {
                npc.Doing = action.Description;
                npc.Emoji = action.Emoji;
                if (!string.IsNullOrEmpty(action.Location)) npc.Place = action.Location;
            }
            npc.Saying = utterance != null && utterance.Speaker == npc.Name ? utterance.Text : null;
        }
    }
}
