// Loaded before the Jupyter widgets' HTML manager on the pages that show widgets.
(function () {
  "use strict";
  // 1. The manager loads its icon fonts from beside its own script (this folder), not from a folder named
  //    after its AMD module beside the page: tell RequireJS (configured before it loads) where the modules
  //    live, and the manager where its assets are.
  var here = document.currentScript && document.currentScript.src;
  if (here) {
    var folder = here.replace(/[^/]*$/, "");
    window.__jupyter_widgets_assets_path__ = folder;
    window.require = {
      paths: {
        "@jupyter-widgets/html-manager": folder + "embed-amd",
        "@jupyter-widgets/html-manager/dist/libembed-amd": folder + "libembed-amd",
      },
    };
  }
  // 2. The manager typesets widget labels with MathJax 2's API (MathJax.Hub.Queue); the site bundles
  //    MathJax 3.  Whatever object becomes window.MathJax (the configuration, then MathJax itself) gets a
  //    Hub whose Queue typesets the element with MathJax 3 once it has started.
  var hub = {
    Queue: function (job) {
      var element = Array.isArray(job) ? job[2] : undefined;
      var mathjax = window.MathJax;
      if (!mathjax || !mathjax.startup || !mathjax.startup.promise) {
        return; // not started yet: its first pass typesets the whole page, widgets included
      }
      mathjax.startup.promise
        .then(function () { return mathjax.typesetPromise(element ? [element] : undefined); })
        .catch(function () {});
    },
  };
  var current = window.MathJax;
  function withHub(value) {
    if (value && typeof value === "object" && !value.Hub) {
      try { value.Hub = hub; } catch (e) { /* a frozen object: leave it */ }
    }
    return value;
  }
  Object.defineProperty(window, "MathJax", {
    configurable: true,
    get: function () { return current; },
    set: function (value) { current = withHub(value); },
  });
  withHub(current);
  // 3. An Image widget saved before it was given a picture (a plot drawn only on Run) shows no broken icon.
  document.addEventListener("error", function (event) {
    var target = event.target;
    if (target && target.tagName === "IMG" && target.classList.contains("widget-image")) {
      target.style.visibility = "hidden";
    }
  }, true);
})();
