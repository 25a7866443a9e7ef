using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Hearth;
using UnityEngine;

/// <summary>
/// Drives a Hearth world from a Unity scene: every tick the world's clock moves on, each NPC
/// reports where it is and whom it sees, and walks to where its action takes place, with its
/// emoji, action and line over its head. Put it on an empty GameObject; name each NPC's agent
/// and give the places of your map an anchor in the scene.
/// </summary>
public class HearthTown : MonoBehaviour
{
    [Serializable]
    public class NpcView
    {
        public string agentName;
        public Transform body;
        public TextMesh label;
    }

    [Serializable]
    public class PlaceAnchor
    {
        [Tooltip("a place path of the world's map, or its area: \"The Copper Kettle\"")]
        public string place;
        public Transform anchor;
    }

    public string baseUrl = "http://127.0.0.1:8000";
    [Tooltip("the world's key (never the admin key in a game)")]
    public string worldKey;
    public string worldId;
    public float secondsPerTick = 2f;
    public float gameMinutesPerTick = 10f;
    public float walkSpeed = 3f;
    public List<NpcView> npcs = new List<NpcView>();
    public List<PlaceAnchor> places = new List<PlaceAnchor>();

    private HearthClient client;
    private TownLoop loop;
    private readonly CancellationTokenSource stop = new CancellationTokenSource();

    private async void Start()
    {
        client = new HearthClient(baseUrl, worldKey);
        loop = new TownLoop(client, worldId, gameMinutesPerTick);
        try
        {
            await loop.LoadAsync(stop.Token);
            while (!stop.IsCancellationRequested)
            {
                await loop.TickAsync(stop.Token); // back on the main thread after each await
                Show();
                await Task.Delay(TimeSpan.FromSeconds(secondsPerTick), stop.Token);
            }
        }
        catch (OperationCanceledException)
        {
            // the scene is closing
        }
        catch (HearthException error)
        {
            Debug.LogWarning("Hearth: " + error.Status + " " + error.Code + ": " + error.Message + " (request " + error.RequestId + ")");
        }
    }

    private void Show()
    {
        foreach (NpcView view in npcs)
        {
            Npc npc = Find(view.agentName);
            if (npc == null) continue;
            if (view.label != null)
                view.label.text = (npc.Emoji ?? "") + " " + (npc.Doing ?? "idle") + (npc.Saying != null ? "\n\"" + npc.Saying + "\"" : "");
        }
    }

    private void Update()
    {
        if (loop == null) return;
        foreach (NpcView view in npcs)
        {
            Npc npc = Find(view.agentName);
            Transform target = npc == null ? null : Anchor(npc.Place);
            if (target != null && view.body != null)
                view.body.position = Vector3.MoveTowards(view.body.position, target.position, walkSpeed * Time.deltaTime);
        }
    }

    private Npc Find(string name)
    {
        foreach (Npc npc in loop.Npcs.Values)
            if (npc.Name == name) return npc;
        return null;
    }

    /// <summary>The anchor of the place, else of its area.</summary>
    private Transform Anchor(string place)
    {
        string area = TownLoop.Area(place);
        Transform found = null;
        foreach (PlaceAnchor p in places)
        {
            if (p.place == place) return p.anchor;
            if (p.place == area) found = p.anchor;
        }
        return found;
    }

    private void OnDestroy()
    {
        stop.Cancel();
        if (client != null) client.Dispose();
    }
}
