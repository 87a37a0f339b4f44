"""Browser entry point: PyScript runs this after unpacking app.zip."""

from js import performance  # type: ignore[import-not-found]

performance.mark("ct:python-start")

from web.app import main  # noqa: E402

main()
