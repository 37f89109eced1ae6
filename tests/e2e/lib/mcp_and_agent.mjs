// The setting of the tests that try Waymark through both of its doors (gate_attacks, secrets): a
// fixture page in real Chromium with the real extension and host, the agent's model scripted
// (tools/fake-llm), and an outside MCP client the user has allowed, acting on that page.
import { connectMcp, openFixture, startModel } from './harness.mjs';

/// Opens `fixture` with the agent's model answering `steps` and an MCP client named `clientName` (the
/// harness's default name when none is given). Returns `{ model, browser, site, page, panel, client,
/// close }`; `close()` ends whatever was started, also when opening failed half way.
export async function openWithClientAndAgent(fixture, { steps = [], clientName } = {}) {
  const opened = {
    async close() {
      await opened.client?.close();
      await opened.browser?.close();
      await opened.site?.close();
      opened.model?.close();
    },
  };
  try {
    opened.model = await startModel(steps);
    const env = { WAYMARK_LLM_BASE_URL: opened.model.url, WAYMARK_LLM_MODEL: 'scripted', WAYMARK_LLM_TIMEOUT_SECS: '20' };
    // Its parts only: `close` here closes them and the rest.
    ({ browser: opened.browser, site: opened.site, page: opened.page, panel: opened.panel } = await openFixture(fixture, { env }));
    // Tools without a tab act on the active tab of the focused window: the fixture, not the panel.
    await opened.page.bringToFront();
    opened.client = await connectMcp(opened.browser.stateDir, clientName, { panel: opened.panel });
  } catch (error) {
    await opened.close();
    throw error;
  }
  return opened;
}

/// Calls the tool `name` as `client`: its answer `{status, error?, kind?, data?}` as `body`, all the
/// text the client received as `text`, and the raw `result`.
export async function callTool(client, name, args = {}, options = undefined) {
  const result = await client.callTool({ name, arguments: args }, undefined, options);
  const text = result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  return { body: JSON.parse(result.content[0].text), text, result };
}

/// Waits (at most `timeout` ms) for a question in `panel`'s question dialog whose words match
/// `pattern`; its words. A wait in vain says what the dialog says instead.
export async function askedIn(panel, pattern, timeout = 15_000) {
  await panel.waitForFunction(
    ({ source, flags }) => new RegExp(source, flags).test(document.getElementById('question-text').textContent),
    { source: pattern.source, flags: pattern.flags },
    { timeout },
  ).catch(async (error) => {
    error.message += `\nthe question says: ${await panel.textContent('#question-text')}`;
    throw error;
  });
  return panel.textContent('#question-text');
}
