// Stands in for the API VS Code gives a webview: records what the page posts and the state it
// saves, and counts acquireVsCodeApi() calls (VS Code allows exactly one). Injected by
// harness.ts with the page's CSP nonce, before the inspector bundle. Test code reads
// window.__cc; the host's side is played by window.postMessage(message, '*').
(function () {
  const saved = window.__ccInitialState;
  const cc = { posted: [], states: [], acquired: 0, state: saved === undefined ? undefined : saved, cspViolations: [] };
  window.__cc = cc;
  document.addEventListener('securitypolicyviolation', (e) => {
    cc.cspViolations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
  });
  window.acquireVsCodeApi = function () {
    cc.acquired++;
    if (cc.acquired > 1) throw new Error('An instance of the VS Code API has already been acquired');
    return Object.freeze({
      postMessage(message) {
        cc.posted.push(JSON.parse(JSON.stringify(message)));
      },
      getState() {
        return cc.state;
      },
      setState(state) {
        cc.state = JSON.parse(JSON.stringify(state));
        cc.states.push(cc.state);
        return state;
      },
    });
  };
})();
