using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using NUnit.Framework;

namespace Hearth.Tests
{
    /// <summary>Assertions NUnit 2.6 lacks for async code.</summary>
    public static class Expect
    {
        /// <summary>The exception of exactly type T that <paramref name="act"/> ends with.</summary>
        public static async Task<T> Throws<T>(Func<Task> act) where T : Exception
        {
            try
            {
                await act();
            }
            catch (Exception error)
            {
                Assert.AreEqual(typeof(T), error.GetType(), "the exception: " + error);
                return (T)error;
            }
            Assert.Fail("expected " + typeof(T).Name + ", nothing was thrown");
            return null;
        }

        public static async Task<List<T>> All<T>(Pager<T> pager)
        {
            return await pager.ToListAsync();
        }
    }
}
