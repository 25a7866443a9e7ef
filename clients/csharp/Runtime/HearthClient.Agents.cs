using System.Threading;
using System.Threading.Tasks;

namespace Hearth
{
    /// <summary>Agents, the map and what each agent knows of it, personas, inner voice, object states.</summary>
    public sealed partial class HearthClient
    {
        public Task<Agent> CreateAgentAsync(string worldId, AgentCreate agent, string idempotencyKey = null, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<Agent>(new Call("POST", World(worldId, "/agents")) { Body = agent, Creates = true }, idempotencyKey, token);
        }

        /// <summary>Every agent, in creation order.</summary>
        public Pager<Agent> ListAgents(string worldId, int pageSize = DefaultPageSize, CancellationToken token = default(CancellationToken))
        {
            return Pages<Agent>(() => new Call("GET", World(worldId, "/agents")), pageSize, token);
        }

        public Task<Agent> GetAgentAsync(string worldId, string agentId, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<Agent>(new Call("GET", Agent(worldId, agentId)), null, token);
        }

        public Task<Agent> UpdateAgentAsync(string worldId, string agentId, AgentUpdate changes, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<Agent>(new Call("PATCH", Agent(worldId, agentId)) { Body = changes }, null, token);
        }

        public Task DeleteAgentAsync(string worldId, string agentId, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<object>(new Call("DELETE", Agent(worldId, agentId)), null, token);
        }

        /// <summary>The subtree of the map the agent knows, with states as it last saw them.</summary>
        public Task<KnownMap> AgentPlacesAsync(string worldId, string agentId, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<KnownMap>(new Call("GET", Agent(worldId, agentId, "/places")), null, token);
        }

        /// <summary>Replace the world's map: areas, sub-areas and objects.</summary>
        public Task<MapSummary> PutMapAsync(string worldId, MapSpec map, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<MapSummary>(new Call("PUT", World(worldId, "/map")) { Body = map }, null, token);
        }

        public Task<Map> GetMapAsync(string worldId, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<Map>(new Call("GET", World(worldId, "/map")), null, token);
        }

        /// <summary>Many agents at once, with their seed memories and relationships.</summary>
        public Task<ImportSummary> ImportPersonasAsync(string worldId, PersonaPack pack, string idempotencyKey = null, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<ImportSummary>(new Call("POST", World(worldId, "/personas/import")) { Body = pack, Creates = true }, idempotencyKey, token);
        }

        /// <summary>The paper's inner voice: a directive the agent takes as its own thought.</summary>
        public Task<Memory> InnerVoiceAsync(string worldId, string agentId, string text, string idempotencyKey = null, CancellationToken token = default(CancellationToken))
        {
            var body = new InnerVoice { Text = text };
            return SendAsync<Memory>(new Call("POST", Agent(worldId, agentId, "/inner-voice")) { Body = body, Creates = true }, idempotencyKey, token);
        }

        /// <summary>Place and State, or the paper's Statement "&lt;cafe: stove&gt; is burning".</summary>
        public Task<ObjectState> SetObjectStateAsync(string worldId, ObjectStateChange change, string idempotencyKey = null, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<ObjectState>(new Call("POST", World(worldId, "/objects/state")) { Body = change, Creates = true }, idempotencyKey, token);
        }
    }
}
