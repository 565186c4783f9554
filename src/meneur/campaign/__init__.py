"""Campaigns that last: characters, their state and a verifiable roll log in a database.

Nothing heavy is imported here: SQLAlchemy and Alembic load only when a module of this
package that needs them is imported (``meneur roll`` without a campaign never pays it).

* :mod:`.models`: the tables (SQLAlchemy 2 typed models);
* :mod:`.engine`: which database (``MENEUR_DB_URL`` or SQLite in the user's data folder)
  and how it is opened (WAL, foreign keys, one writer at a time);
* :mod:`.migrate`: Alembic migrations shipped in ``migrations/``, applied on open;
* :mod:`.store`: the :class:`~meneur.campaign.store.Store` (campaigns, characters, rolls);
* :mod:`.chain`: verifiable dice (HMAC-SHA256 commitment) and the hash-chained log;
* :mod:`.transfer`: JSON export and import of characters, validated before writing;
* :mod:`.recording`: how every command's rolls reach the log (two hooks, in
  ``dice_sources`` and ``emit``), and ``--character NAME``;
* :mod:`.rolllog`: :func:`~meneur.campaign.rolllog.log_roll`, for code that is not a
  command (the web table, scripts).
"""
