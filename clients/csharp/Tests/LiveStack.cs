using System;
using System.Diagnostics;
using System.IO;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;

namespace Hearth.Tests.Live
{
    /// <summary>
    /// A live Hearth for the tests of this namespace: <c>python -m tests.live_stack --workers</c>
    /// from the repository root (embedded PostgreSQL + Redis in a temporary folder, migrated, an
    /// admin key, the API on a free port, a fast and a slow worker and beat) — what `hearth up`
    /// runs. HEARTH_PYTHON names the interpreter (default: the repository's .venv); with
    /// HEARTH_TEST_URL and HEARTH_TEST_ADMIN_KEY the tests use that stack instead.
    /// </summary>
    [SetUpFixture]
    public class LiveStack
    {
        private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(180);
        private Process process;

        public static string Url { get; private set; }
        public static string AdminKey { get; private set; }
        public static string Repo { get; private set; }

        /// <summary>Quick retries, so the tests that meet a 429 or 503 do not wait long.</summary>
        public static Retry FastRetry()
        {
            return new Retry(attempts: 3, backoffSeconds: 0.05, maxBackoffSeconds: 0.2);
        }

        public static HearthClient Admin()
        {
            return new HearthClient(Url, AdminKey, FastRetry());
        }

        [SetUp]
        public void Start()
        {
            Repo = FindRepo();
            Url = Environment.GetEnvironmentVariable("HEARTH_TEST_URL");
            AdminKey = Environment.GetEnvironmentVariable("HEARTH_TEST_ADMIN_KEY");
            if (!string.IsNullOrEmpty(Url) && !string.IsNullOrEmpty(AdminKey)) return;
            var info = new ProcessStartInfo(Python(), "-m tests.live_stack --workers")
            {
                WorkingDirectory = Repo,
                UseShellExecute = false,
                RedirectStandardInput = true,
                RedirectStandardOutput = true,
            };
            process = Process.Start(info);
            Task<string> line = process.StandardOutput.ReadLineAsync();
            if (!line.Wait(StartTimeout) || line.Result == null)
                throw new InvalidOperationException("the live stack did not start (see its messages above)");
            JObject ready = JObject.Parse(line.Result);
            Url = (string)ready["url"];
            AdminKey = (string)ready["admin_key"];
        }

        [TearDown]
        public void Stop()
        {
            if (process == null) return;
            process.StandardInput.Close(); // the launcher stops everything when its input closes
            if (!process.WaitForExit(60000)) process.Kill();
        }

        private static string Python()
        {
            string given = Environment.GetEnvironmentVariable("HEARTH_PYTHON");
            if (!string.IsNullOrEmpty(given)) return given;
            string venv = Path.Combine(Repo, ".venv", "bin", "python");
            return File.Exists(venv) ? venv : "python3";
        }

        /// <summary>HEARTH_REPO, else the first folder up from here holding tests/live_stack.py.</summary>
        private static string FindRepo()
        {
            string given = Environment.GetEnvironmentVariable("HEARTH_REPO");
            if (!string.IsNullOrEmpty(given)) return given;
            for (var dir = new DirectoryInfo(Environment.CurrentDirectory); dir != null; dir = dir.Parent)
                if (File.Exists(Path.Combine(dir.FullName, "tests", "live_stack.py"))) return dir.FullName;
            throw new InvalidOperationException("run from the repository, or set HEARTH_REPO");
        }
    }
}
