"""Browser entry point: PyScript runs this after unpacking app.zip."""

from web.app import main

main()
