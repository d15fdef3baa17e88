/**
 * A merchant's site on its own origin for browser tests: a signup page that loads Warden's
 * /sdk/warden.js (or the ES module), watches its form, and on submit sends the token to the
 * site's backend, which screens the signup with its secret key and shows Warden's answer.
 */
import Fastify from "fastify";

export async function startMerchantSite(options: {
  wardenUrl: string;
  publishableKey: string;
  secretKey: string;
}) {
  const { wardenUrl, publishableKey, secretKey } = options;
  const app = Fastify();
  const form = `<form id="signup">
    <label>Email <input name="email" type="email" autocomplete="off"></label>
    <label>Password <input name="password" type="password" autocomplete="off"></label>
    <button type="submit">Sign up</button>
  </form>
  <pre id="result"></pre>`;
  const onSubmit = `
    const form = document.getElementById("signup");
    const result = document.getElementById("result");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      let signals;
      try { signals = await Warden.token(); } catch (error) { result.dataset.error = String(error); }
      const answer = await fetch("/signup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: form.email.value, signals }),
      });
      result.textContent = await answer.text();
      result.dataset.done = "true";
    });`;
  app.get("/signup", async (_request, reply) =>
    reply.type("text/html").send(`<!doctype html><html><head><title>Shop</title>
  <script src="${wardenUrl}/sdk/warden.js"></script></head><body>${form}
  <script>
    Warden.init({ key: ${JSON.stringify(publishableKey)}, url: ${JSON.stringify(wardenUrl)}, form: "#signup" });
    ${onSubmit}
  </script></body></html>`),
  );
  app.get("/signup-module", async (_request, reply) =>
    reply.type("text/html").send(`<!doctype html><html><head><title>Shop</title></head><body>${form}
  <script type="module">
    import Warden, { init, watch, token } from "${wardenUrl}/sdk/warden.mjs";
    window.Warden = { token };
    init({ key: ${JSON.stringify(publishableKey)}, url: ${JSON.stringify(wardenUrl)} });
    watch(document.getElementById("signup"));
    window.moduleReady = typeof Warden.token === "function";
    ${onSubmit}
  </script></body></html>`),
  );
  // The merchant's backend: passes the token on as `signals`, with its secret key.
  app.post("/signup", async (request) => {
    const { email, signals } = request.body as { email: string; signals?: string };
    const response = await fetch(`${wardenUrl}/api/v1/screen`, {
      method: "POST",
      headers: { authorization: `Bearer ${secretKey}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "signup", email, ...(signals ? { signals } : {}) }),
    });
    return response.json();
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as { port: number };
  return { origin: `http://localhost:${port}`, close: () => app.close() };
}
