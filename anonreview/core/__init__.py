"""The shared core: what both apps write, so that neither has to import the other.

Today that is the audit log (``AuditEvent`` and its one writer ``audit_record``).
"""
