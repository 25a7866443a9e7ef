using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Hearth
{
    /// <summary>Which memories a listing keeps: kinds, a game-time range, text (any case).</summary>
    public sealed class MemoryFilter
    {
        public IList<string> Kinds { get; set; }
        public string Since { get; set; }
        public string Until { get; set; }
        public string Text { get; set; }
    }

    /// <summary>The memory stream: add, list, read (a reflection with its evidence), search.</summary>
    public sealed partial class HearthClient
    {
        public async Task<List<Memory>> AddMemoriesAsync(string worldId, string agentId, IList<MemoryCreate> memories,
            string idempotencyKey = null, CancellationToken token = default(CancellationToken))
        {
            var body = new MemoryBatch { Memories = new List<MemoryCreate>(memories) };
            var call = new Call("POST", Agent(worldId, agentId, "/memories")) { Body = body, Creates = true };
            var page = await SendAsync<Page<Memory>>(call, idempotencyKey, token).ConfigureAwait(false);
            return page.Items;
        }

        /// <summary>Newest first.</summary>
        public Pager<Memory> ListMemories(string worldId, string agentId, MemoryFilter filter = null,
            int pageSize = DefaultPageSize, CancellationToken token = default(CancellationToken))
        {
            var f = filter ?? new MemoryFilter();
            return Pages<Memory>(() =>
            {
                var call = new Call("GET", Agent(worldId, agentId, "/memories"));
                if (f.Kinds != null) foreach (var kind in f.Kinds) call.With("kind", kind);
                return call.With("since", f.Since).With("until", f.Until).With("text", f.Text);
            }, pageSize, token);
        }

        /// <summary>A memory; a reflection with the tree of evidence it cites.</summary>
        public Task<MemoryDetail> GetMemoryAsync(string worldId, string agentId, long memoryId, CancellationToken token = default(CancellationToken))
        {
            return SendAsync<MemoryDetail>(new Call("GET", Agent(worldId, agentId, "/memories/" + memoryId)), null, token);
        }

        /// <summary>The paper's retrieval, every term explained; safe to resend (Touch marks access).</summary>
        public Task<SearchResponse> SearchMemoriesAsync(string worldId, string agentId, SearchRequest request, CancellationToken token = default(CancellationToken))
        {
            var call = new Call("POST", Agent(worldId, agentId, "/memories/search")) { Body = request, Replayable = true };
            return SendAsync<SearchResponse>(call, null, token);
        }
    }
}
