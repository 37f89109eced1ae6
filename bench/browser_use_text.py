"""Turns one result of browser-use 0.5.11's `index.js` into the element text that browser-use gives its model,
by running browser-use's own Python code (`DomService._construct_dom_tree` and
`DOMElementNode.clickable_elements_to_string`) from the files bench/overlay.mjs extracted from the PyPI wheel.
Nothing of browser-use is kept in this repository; this file only loads it.

Usage: python3 browser_use_text.py PACKAGE_ROOT RESULT_JSON
  PACKAGE_ROOT  the folder holding the extracted `browser_use/` package files
  RESULT_JSON   the value `page.evaluate(index.js, args)` returned, as JSON
Prints one JSON object: {"chars": …, "highlighted": …}.

browser-use's package `__init__` pulls in its whole runtime (logging setup, config, psutil, LLM clients), none of
which the serializer uses, so the package and its two helper modules are stood in for by small stubs; the
serializer modules themselves (`dom/views.py`, `dom/service.py`, `dom/utils.py`,
`dom/history_tree_processor/view.py`) run unchanged.
"""

import asyncio
import json
import sys
import types


def install_stubs(package_root: str) -> None:
    # The package itself, without running its __init__.py.
    pkg = types.ModuleType("browser_use")
    pkg.__path__ = [f"{package_root}/browser_use"]
    sys.modules["browser_use"] = pkg

    def passthrough_factory(*_args, **_kwargs):
        # time_execution_sync('label') and observe_debug(...) are decorator factories: return the function.
        return lambda func: func

    utils = types.ModuleType("browser_use.utils")
    utils.time_execution_sync = passthrough_factory
    utils.time_execution_async = passthrough_factory
    utils.is_new_tab_page = lambda url: url in ("about:blank", "chrome://new-tab-page/", "chrome://newtab/")
    sys.modules["browser_use.utils"] = utils

    observability = types.ModuleType("browser_use.observability")
    observability.observe_debug = passthrough_factory
    sys.modules["browser_use.observability"] = observability

    try:
        import pydantic  # noqa: F401  (the real one, when this Python has it)
    except ImportError:
        # Only ViewportInfo and friends derive from BaseModel; the serializer merely stores them.
        stub = types.ModuleType("pydantic")

        class BaseModel:
            def __init__(self, **fields):
                self.__dict__.update(fields)

        stub.BaseModel = BaseModel
        sys.modules["pydantic"] = stub


def main() -> None:
    package_root, result_path = sys.argv[1], sys.argv[2]
    install_stubs(package_root)
    from browser_use.dom.service import DomService

    with open(result_path, encoding="utf-8") as f:
        eval_page = json.load(f)
    # _construct_dom_tree only reads its argument; the page handle that __init__ wants is not needed.
    service = DomService.__new__(DomService)
    tree, selector_map = asyncio.run(service._construct_dom_tree(eval_page))
    text = tree.clickable_elements_to_string()
    print(json.dumps({"chars": len(text), "highlighted": len(selector_map)}))


if __name__ == "__main__":
    main()
