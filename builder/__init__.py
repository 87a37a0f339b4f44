"""The site builder and the host-side tools (issue 31): nothing here ships to the browser.

``python -m builder.build`` writes build/, ``python -m builder.serve`` serves it; the
standard-library cut (stdlib-cut.txt, stdlib_fallback.py, stdlib_tracer.py), the
bytecode compiler (compile_pyc.mjs) and the Jinja2 templates live here too.
"""
