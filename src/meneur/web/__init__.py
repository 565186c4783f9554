"""The live table: a web page where the GM and players roll together (``meneur serve``).

``create_app`` (in :mod:`meneur.web.app`) builds the FastAPI application; see docs/web.md.
"""
