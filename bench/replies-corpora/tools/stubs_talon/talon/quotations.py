from rec import Res
MAX_LINES_COUNT = 1000
def html_document_fromstring(*a): return None
def extract_from_plain(msg_body): return Res('extract_from_plain', msg_body)
def extract_from_html(msg_body): return Res('extract_from_html', msg_body)
def extract_from(msg_body, content_type='text/plain'): return Res('extract_from:' + content_type, msg_body)
def mark_message_lines(*a): return None
def process_marked_lines(*a): return None
def preprocess(*a): return None
def split_emails(*a): return None
