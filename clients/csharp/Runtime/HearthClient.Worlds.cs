using System.Collections.Generic;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;

namespace Hearth
{
    /// <summary>Health, the caller, worlds (admin), the clock, keys, export and import, metrics.</summary>
    public sealed partial class HearthClient
    {
        public Task<Health> HealthAsync(CancellationToken token = default(CancellationToken))
        {
            return SendAsync<Health>(new Call("GET", "/healthz"), null, token);
        }

        /// <summary>The readiness report, also when not ready (then Status is "not_ready").</summary>
        public Task<Readiness> ReadinessAsync(CancellationToken token = default(CancellationToken))
        {
            return SendAsync<Readiness>(new Call("GET", "/readyz") { Accept = new[] { 503 } }, null, token);
        }

        /// <summary>What the key reaches: scope "admin", or "world" with its WorldId.</summary>
        public Task<Caller> MeAsync(CancellationToken token = default(CancellationToken))
        {
            return SendAsync<Caller>(new Call("GET", "/v1/me"), null, token);
        }

        /// <summary>Admin key: every world, in creation order.</summary>
        public Pager<World> ListWorlds(int pageSize = DefaultPageSize, CancellationToken token = default(CancellationToken))
        {
            return Pages<World>(() => new Call("GET", "/v1/worlds"), pageSize, token);
        }

        /// <summary>Admin key. The answer holds the world's key; it is shown only once.</summary>
        public Task<WorldCreated> CreateWorldAsync(WorldCreate world, string idempotencyKey = null, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<WorldCreated>(new Call("POST", "/v1/worlds") { Body = world, Creates = true }, idempotencyKey, token);
        }

        public Task<World> GetWorldAsync(string worldId, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<World>(new Call("GET", World(worldId)), null, token);
        }

        /// <summary>Admin key: rename the world or change its settings. Properties left null are
        /// kept; to send a setting as null (back to the server's default) pass a JObject.</summary>
        public Task<World> UpdateWorldAsync(string worldId, WorldUpdate changes, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<World>(new Call("PATCH", World(worldId)) { Body = changes }, null, token);
        }

        /// <summary>Admin key: the changes as raw JSON, where an explicit null resets a setting.</summary>
        public Task<World> UpdateWorldAsync(string worldId, JObject changes, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<World>(new Call("PATCH", World(worldId)) { Body = changes }, null, token);
        }

        /// <summary>Admin key: the world and everything in it.</summary>
        public Task DeleteWorldAsync(string worldId, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<object>(new Call("DELETE", World(worldId)), null, token);
        }

        /// <summary>Admin key: the world as JSON Lines (a header, a line per row, an end line).</summary>
        public Task<string> ExportWorldAsync(string worldId, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<string>(new Call("GET", World(worldId, "/export")), null, token);
        }

        /// <summary>Admin key: a new world (new ids, its own key) from an export. Never resent.</summary>
        public Task<WorldCreated> ImportWorldAsync(string export, string name = null, CancellationToken token = default(CancellationToken))
        {
            var call = new Call("POST", "/v1/worlds/import") { RawBody = Encoding.UTF8.GetBytes(export) }.With("name", name);
            return SendAsync<WorldCreated>(call, null, token);
        }

        /// <summary>Set, Advance (minutes), Paused, Mode, Rate; never resent after a lost connection.</summary>
        public Task<Clock> ClockAsync(string worldId, ClockUpdate change, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<Clock>(new Call("POST", World(worldId, "/clock")) { Body = change }, null, token);
        }

        public Task<KeyCreated> CreateKeyAsync(string worldId, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<KeyCreated>(new Call("POST", World(worldId, "/keys")), null, token);
        }

        public Task<List<Key>> ListKeysAsync(string worldId, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<List<Key>>(new Call("GET", World(worldId, "/keys")), null, token);
        }

        public Task RevokeKeyAsync(string worldId, string keyId, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<object>(new Call("DELETE", World(worldId, "/keys/" + Seg(keyId))), null, token);
        }

        /// <summary>Admin key: Prometheus text format.</summary>
        public Task<string> MetricsAsync(CancellationToken token = default(CancellationToken))
        {
            return SendAsync<string>(new Call("GET", "/metrics"), null, token);
        }
    }
}
