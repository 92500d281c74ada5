// The file the host gives piscina for every executor thread: CommonJS, on purpose.
//
// piscina loads a thread's task file with require() first. On Node ≥ 20.19 (and 26), require()
// of an ES module builds a facade for it, and a thread terminated while Node builds that facade
// takes its whole process down (SIGABRT: "Assertion failed: facade->InstantiateModule(…)" in
// ModuleWrap::CreateRequiredModuleFacade). The host terminates threads at any moment: a run
// that ignores its cancel, a boot probe past its timeout, a spare retired, close(). Loaded as
// CommonJS, this file takes no such path: it loads the ES entry with import(), which a
// terminate ends like any other code. piscina awaits the export, the thread's task handler.
export = import('./worker-entry.js').then((entry) => entry.default);
