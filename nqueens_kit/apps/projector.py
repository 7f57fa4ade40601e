"""The projector layout of the board explorer: the board first and large, big controls and labels, and the keys
a presentation clicker sends.

A clicker is a keyboard with a few keys: *PageDown* (forward) and *PageUp* (back), on some models the arrow
keys.  :data:`KEYS` says what each key does; :func:`key_listener` is the page's side of it, a small script
(shown through an output widget, so it runs wherever the widgets are live: JupyterLab and Voilà) that turns
such a key into a click on the button of that action in the visible projector layout, and that scrolls the app
to the top of the window when it switches to that layout (the board is then wholly in view at 1024 x 768).
The Python side of the same table is :meth:`BoardExplorer.press
<nqueens_kit.apps.board_explorer.BoardExplorer.press>`.  A key typed into a text box, a dropdown or a focused
slider is left to that control.

>>> KEYS["PageDown"], KEYS["PageUp"]
('next', 'previous')
>>> '"PageDown": "next"' in key_script()
True
"""

from __future__ import annotations

import json

import ipywidgets as widgets

#: The layouts of the board explorer (and the playground): at a desk, and on a projector.
LAYOUTS = ("desk", "projector")
#: Key (the browser's ``KeyboardEvent.key``) -> action; each action is a button of class ``nqk-key-<action>``.
KEYS = {
    "PageDown": "next", "ArrowRight": "next",
    "PageUp": "previous", "ArrowLeft": "previous",
    "ArrowUp": "bigger", "ArrowDown": "smaller",
}
#: The side of the board in the projector layout (px): with the controls beside it, it fits 1024 x 768.
PROJECTOR_BOARD_PX = 520
#: The width of the controls beside the board (px).
PROJECTOR_PANEL_PX = 430

#: Large controls and labels inside a projector layout (ipywidgets' own classes).
PROJECTOR_CSS = """
.nqk-projector { font-size: 20px; }
.nqk-projector .widget-label, .nqk-projector .widget-readout, .nqk-projector .widget-inline-hbox label,
.nqk-projector select, .nqk-projector .jupyter-button, .nqk-projector .widget-html-content,
.nqk-projector .nqk-message { font-size: 20px !important; line-height: 1.3; }
.nqk-projector .jupyter-button, .nqk-projector select { height: 44px !important; }
.nqk-projector .widget-dropdown, .nqk-projector .widget-slider, .nqk-projector .widget-toggle-buttons,
.nqk-projector .widget-hslider { height: auto !important; min-height: 44px; }
.nqk-projector .noUi-handle { width: 26px !important; height: 26px !important; top: -9px !important; }
.nqk-projector .nqk-counter { font-size: 28px !important; font-weight: bold; }
.nqk-projector .nqk-stats { font-size: 15px; color: #555; }
.nqk-projector .jupyter-button { font-size: 19px !important; padding: 0 8px; }
.nqk-projector-tabs .lm-TabBar-tab, .nqk-projector-tabs .p-TabBar-tab { font-size: 18px !important;
  max-width: none !important; flex: 0 0 auto !important; min-width: 0 !important; }
"""


def key_script() -> str:
    """The page's key listener (JavaScript, installed once per page): a key of :data:`KEYS` clicks the enabled
    button ``.nqk-key-<action>`` of the first visible ``.nqk-projector``."""
    script = """(function () {
  if (window.nqkProjectorKeys) { return; }
  window.nqkProjectorKeys = true;
  var keys = KEYS;
  document.addEventListener("keydown", function (event) {
    var action = keys[event.key];
    var target = event.target;
    if (!action || event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (target && target.closest && (target.closest("input, textarea, select, [contenteditable]")
        || target.closest(".noUi-target"))) { return; }  /* a control being used keeps its key */
    var layouts = document.querySelectorAll(".nqk-projector");
    for (var i = 0; i < layouts.length; i++) {
      if (layouts[i].offsetParent === null) { continue; }  /* in a hidden tab */
      var button = layouts[i].querySelector("button.nqk-key-" + action);
      if (button && !button.disabled) { button.click(); }
      event.preventDefault();
      return;
    }
  }, true);
  /* switched to the projector layout: bring the app to the top of the window, the board wholly in view */
  new MutationObserver(function (changes) {
    changes.forEach(function (change) {
      var el = change.target;
      if (el.classList && el.classList.contains("nqk-projector")
          && !(change.oldValue || "").split(" ").includes("nqk-projector")) {
        (el.closest(".nqk-playground") || el).scrollIntoView({block: "start"});
      }
    });
  }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ["class"], attributeOldValue: true});
})();"""
    return script.replace("KEYS", json.dumps(KEYS, sort_keys=True), 1)


def key_listener() -> widgets.Box:
    """The projector's style sheet (an HTML widget) and its key listener (an output widget that shows the
    script of :func:`key_script`), in one box that takes no room."""
    out = widgets.Output()
    out.outputs = ({"output_type": "display_data", "metadata": {},
                    "data": {"application/javascript": key_script(), "text/plain": ""}},)
    box = widgets.Box([widgets.HTML(f"<style>{PROJECTOR_CSS}</style>"), out],
                      layout=widgets.Layout(height="0px", overflow="hidden"))
    box.add_class("nqk-projector-keys")
    return box


def keys_hint() -> str:
    """The line under the projector's controls saying which keys do what."""
    return ("<div class='nqk-keys-hint' style='font-size:16px;color:#555'>Clicker or keys: "
            "<b>PageDown</b> or <b>→</b> next, <b>PageUp</b> or <b>←</b> previous, <b>↑</b> / <b>↓</b> n ± 1</div>")
