// The setting of the tests that try Waymark through both of its doors (gate_attacks, secrets): a
// fixture page in real Chromium with the real extension and host, the agent's model scripted
// (tools/fake-llm), and an outside MCP client the user has allowed, acting on that page.
import assert from 'node:assert/strict';
import { connectMcp, openFixture, send, startModel } from './harness.mjs';

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

/// What the gate's tests ask of its questions, for a client's `call(name, args)` on a page whose
/// `effects()` say what it did, with the side panel `panel()` (a function: the tests open it later):
/// `asked(pattern)` waits for a question matching `pattern` in the panel and gives its words;
/// `noQuestionShown()` checks none is; `askedAndRefused(name, args, pattern)` calls a tool that must
/// wait for such a question, checks nothing happened before the answer, says no, and checks the call
/// was declined and nothing happened after.
export function gateQuestions({ panel: side, call, effects }) {
  const asked = (pattern) => askedIn(side(), pattern);

  async function noQuestionShown() {
    const panel = side();
    assert.equal(await panel.locator('#question').isHidden(), true, `no question: ${await panel.textContent('#question-text')}`);
  }

  async function askedAndRefused(name, args, pattern) {
    const before = await effects();
    const pending = call(name, args);
    // A call that comes back before any question is a failure at once, saying what it returned.
    let shown = false;
    const unasked = pending.then((result) => {
      if (!shown) assert.fail(`done without asking: ${JSON.stringify(result)}`);
    });
    const question = await Promise.race([asked(pattern), unasked]);
    shown = true;
    assert.deepEqual(await effects(), before, `nothing happens before the answer to: ${question}`);
    await send(side(), '/no');
    const result = await pending;
    assert.equal(result.status, 'error', JSON.stringify(result));
    assert.equal(result.kind, 'declined', JSON.stringify(result));
    assert.deepEqual(await effects(), before, 'nothing happened after the no');
    return question;
  }

  return { asked, noQuestionShown, askedAndRefused };
}
