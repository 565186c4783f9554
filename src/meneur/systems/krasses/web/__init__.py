"""Krâsses at the web table: its adapter, its template parts and its tracker rolls."""
