// Glue for hearing a page's own dialogs (extension/src/tabs/dialogs.rs). The service worker runs these
// functions with chrome.scripting.executeScript (`func`, so no address of the extension is in the
// page's stack traces) in every frame of a tab, only while Waymark acts there, and ends them after.
// `name` is a random event name the worker chose when it started; the page does not know it.

// In the page's own world: alert, confirm and prompt first tell the content script's world what they
// ask (a DOM event, dispatched synchronously, so it is heard before the browser's dialog blocks the
// page), then do what the browser's own do. Ended by the `name + 'off'` event: the page's own
// functions are put back. A function the page replaced with its own is left alone.
export function pageSide(name) {
  const w = window;
  const doc = document;
  const proto = EventTarget.prototype;
  const { addEventListener: add, removeEventListener: remove, dispatchEvent: dispatch } = proto;
  const { apply } = Reflect;
  const { stringify } = JSON;
  const Custom = CustomEvent;
  const source = Function.prototype.toString;
  const kept = [];
  for (const kind of ['alert', 'confirm', 'prompt']) {
    const own = w[kind];
    if (typeof own !== 'function' || !apply(source, own, []).includes('[native code]')) continue;
    const hooked = new Proxy(own, {
      apply(target, self, args) {
        // The message is made a string once, as the browser's own function would.
        const text = args[0] === undefined ? '' : `${args[0]}`;
        apply(dispatch, doc, [new Custom(name, { detail: stringify({ kind, text }) })]);
        return apply(target, self, args.length ? [text, ...args.slice(1)] : args);
      },
    });
    w[kind] = hooked;
    kept.push([kind, own, hooked]);
  }
  const off = () => {
    for (const [kind, own, hooked] of kept) if (w[kind] === hooked) w[kind] = own;
    apply(remove, doc, [`${name}off`, off]);
  };
  apply(add, doc, [`${name}off`, off]);
}

// In the content script's world: what the page's world tells, and a "leave this page?" the page asked
// for (a `beforeunload` listener of the page, which ran before this one, asked, and the frame has had
// the user's activation, without which the browser shows none), go to the service worker at once.
export function extensionSide(name) {
  const tell = (dialog) => chrome.runtime.sendMessage({ pageDialog: dialog }).catch(() => {});
  const heard = (event) => {
    try {
      const { kind, text } = JSON.parse(event.detail);
      // For the content script's request guard (extension/src/content/guard.rs): a form the page posts
      // after the user's answer is theirs.
      globalThis.waymarkPageDialogAt = performance.now();
      tell({ kind: `${kind}`, text: `${text}` });
    } catch {
      // Not the page's world's message.
    }
  };
  const leaving = (event) => {
    const asks = event.defaultPrevented || (event.returnValue !== '' && event.returnValue !== true);
    if (asks && navigator.userActivation?.hasBeenActive) tell({ kind: 'leave', text: '' });
  };
  const off = () => {
    document.removeEventListener(name, heard);
    document.removeEventListener(`${name}off`, off);
    removeEventListener('beforeunload', leaving);
  };
  document.addEventListener(name, heard);
  document.addEventListener(`${name}off`, off);
  addEventListener('beforeunload', leaving);
}

// In the content script's world: ends both sides in this frame.
export function end(name) {
  document.dispatchEvent(new Event(`${name}off`));
}
