using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json;

namespace Hearth
{
    /// <summary>A page of a cursor-paged list: its items and the cursor of the next page.</summary>
    public class Page<T>
    {
        [JsonProperty("items")]
        public List<T> Items { get; set; }

        /// <summary>Opaque; null on the last page.</summary>
        [JsonProperty("next_cursor")]
        public string NextCursor { get; set; }
    }

    /// <summary>
    /// Every item of a cursor-paged list, page after page, fetched as it is read:
    /// <code>
    /// var agents = hearth.ListAgents(worldId);
    /// while (await agents.MoveNextAsync()) Debug.Log(agents.Current.Name);
    /// </code>
    /// </summary>
    public sealed class Pager<T>
    {
        private readonly Func<string, CancellationToken, Task<Page<T>>> fetch;
        private readonly CancellationToken token;
        private List<T> items = new List<T>();
        private int index = -1;
        private string cursor;
        private bool started;

        internal Pager(Func<string, CancellationToken, Task<Page<T>>> fetch, CancellationToken token)
        {
            this.fetch = fetch;
            this.token = token;
        }

        public T Current { get; private set; }

        /// <summary>Pages fetched so far.</summary>
        public int Pages { get; private set; }

        public async Task<bool> MoveNextAsync()
        {
            while (index + 1 >= items.Count)
            {
                if (started && cursor == null) return false;
                started = true;
                Page<T> page = await fetch(cursor, token).ConfigureAwait(false);
                Pages += 1;
                items = page.Items ?? new List<T>();
                index = -1;
                cursor = string.IsNullOrEmpty(page.NextCursor) ? null : page.NextCursor;
            }
            index += 1;
            Current = items[index];
            return true;
        }

        /// <summary>Every remaining item (mind a long list: prefer reading as you go).</summary>
        public async Task<List<T>> ToListAsync()
        {
            var all = new List<T>();
            while (await MoveNextAsync().ConfigureAwait(false)) all.Add(Current);
            return all;
        }
    }
}
