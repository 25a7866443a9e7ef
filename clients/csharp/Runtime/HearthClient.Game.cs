using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Hearth
{
    /// <summary>The game loop (step, actions), talk, plans, relationships, usage, events.</summary>
    public sealed partial class HearthClient
    {
        /// <summary>The hot path: where agents are and what they perceive → what each is doing and
        /// saying. Never resent after a lost connection: a step stores perceptions. A place it
        /// names must be in the world's map unless <paramref name="createPlaces"/>.</summary>
        public Task<StepResponse> StepAsync(string worldId, IList<AgentStep> agents, bool createPlaces = false, CancellationToken token = default(CancellationToken))
        {
            var body = new StepRequest { Agents = new List<AgentStep>(agents), CreatePlaces = createPlaces ? (bool?)true : null };
            return SendAsync<StepResponse>(new Call("POST", World(worldId, "/step")) { Body = body }, null, token);
        }

        public Task<AgentAction> ActionAsync(string worldId, string agentId, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<AgentAction>(new Call("GET", Agent(worldId, agentId, "/action")), null, token);
        }

        /// <summary>Every agent's place, current action and line (the town view).</summary>
        public Pager<AgentDoing> ListActions(string worldId, int pageSize = DefaultPageSize, CancellationToken token = default(CancellationToken))
        {
            return Pages<AgentDoing>(() => new Call("GET", World(worldId, "/actions")), pageSize, token);
        }

        /// <summary>A player speaks; pass the answer's ConversationId back to continue. Not resent.</summary>
        public Task<ChatResponse> ChatAsync(string worldId, string agentId, ChatRequest request, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<ChatResponse>(new Call("POST", Agent(worldId, agentId, "/chat")) { Body = request }, null, token);
        }

        public Task<InterviewResponse> InterviewAsync(string worldId, string agentId, InterviewRequest request, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<InterviewResponse>(new Call("POST", Agent(worldId, agentId, "/interview")) { Body = request }, null, token);
        }

        /// <summary>The plan tree of a game day ("YYYY-MM-DD"; default the world's today).</summary>
        public Task<PlanDay> PlansAsync(string worldId, string agentId, string day = null, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<PlanDay>(new Call("GET", Agent(worldId, agentId, "/plans")).With("day", day), null, token);
        }

        public Pager<Conversation> ListConversations(string worldId, string agentId, int pageSize = DefaultPageSize, CancellationToken token = default(CancellationToken))
        {
            return Pages<Conversation>(() => new Call("GET", Agent(worldId, agentId, "/conversations")), pageSize, token);
        }

        public Pager<Relationship> ListRelationships(string worldId, string agentId, int pageSize = DefaultPageSize, CancellationToken token = default(CancellationToken))
        {
            return Pages<Relationship>(() => new Call("GET", Agent(worldId, agentId, "/relationships")), pageSize, token);
        }

        /// <summary>Model calls, tokens and cost, by operation and agent; basis "game" or "wall".</summary>
        public Task<UsageReport> UsageAsync(string worldId, string basis = null, string since = null, string until = null, CancellationToken token = default(CancellationToken))
        {
            var call = new Call("GET", World(worldId, "/usage")).With("basis", basis).With("since", since).With("until", until);
            return SendAsync<UsageReport>(call, null, token);
        }

        public Task<UsageTimeline> UsageTimelineAsync(string worldId, int? bucketMinutes = null, string since = null, string until = null, CancellationToken token = default(CancellationToken))
        {
            var call = new Call("GET", World(worldId, "/usage/timeline")).With("bucket_minutes", bucketMinutes).With("since", since).With("until", until);
            return SendAsync<UsageTimeline>(call, null, token);
        }

        /// <summary>The world's events in order, after <paramref name="after"/>; a dropped stream
        /// resumes after the last event seen (Last-Event-ID); <paramref name="once"/> stops at the
        /// current end instead of waiting for more.</summary>
        public EventStream Events(string worldId, long? after = null, bool once = false, bool reconnect = true, CancellationToken token = default(CancellationToken))
        {
            string path = World(worldId, "/events") + (once ? "?once=true" : "");
            return new EventStream(this, path, after, once, reconnect, token);
        }
    }
}
